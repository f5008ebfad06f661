{%- set fields = [
    ('row_id', '$.row_id', 'varchar'),
    ('task_id', '$.task_id', 'varchar'),
    ('final_status', '$.final_status', 'varchar'),
    ('weighted_score', '$.weighted_score', 'double'),
    ('failure_reasons_json', '$.failure_reasons', 'json'),
    ('error_message', '$.error_message', 'varchar'),
    ('task_json_relpath', '$.task_json_relpath', 'varchar'),
    ('replicate_index', '$.replicate_index', 'bigint', "0")
] -%}

with source as (select * from {{ source('coder_eval', 'ce_suite_docs') }})

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    fs.position,
    {{ coder_eval_typed_block('fs.value', fields) }}
from source as d
{{ json_each('d.document', '$.failed_samples', 'fs') }}
