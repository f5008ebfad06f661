{%- set fields = [
    ('criterion_type', '$.criterion_type', 'varchar'),
    ('rows_evaluated', '$.rows_evaluated', 'bigint'),
    ('average_score', '$.average_score', 'double'),
    ('error_count', '$.error_count', 'bigint', "0")
] -%}

with source as (select * from {{ source('coder_eval', 'ce_suite_docs') }})

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    cs.position,
    {{ coder_eval_typed_block('cs.value', fields) }}
from source as d
{{ json_each('d.document', '$.criterion_stats', 'cs') }}
