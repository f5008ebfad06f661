{%- set fields = [
    ('expected_label', '$.expected', 'varchar'),
    ('observed_label', '$.observed', 'varchar'),
    ('pair_count', '$.count', 'bigint')
] -%}

with source as (
    select * from {{ source('coder_eval', 'ce_suite_docs') }}
)

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    ca.position as aggregate_position,
    cf.position,
    {{ coder_eval_typed_block('cf.value', fields) }}
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
{{ json_each('ca.value', '$.details.confusion', 'cf') }}
