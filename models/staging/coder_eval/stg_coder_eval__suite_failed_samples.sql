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

with source as (
    select * from {{ source('coder_eval_reports', 'ce_suite_docs') }}
)

select
    d.load_id,
    d.loaded_at,
    d.source_file,
    d.run_dir,
    d.run_id,
    d.document_sha256,
    d.variant_id as dir_variant_id,
    d.suite_id as dir_suite_id,
    fs.position,
    {{ ce_typed_columns('fs.value', fields) }},
    {{ ce_invalid_fields('fs.value', fields) }} as invalid_fields,
    {{ ce_invalid_fields('fs.value', fields) }} is not null as has_invalid_fields
from source as d
{{ json_each('d.document', '$.failed_samples', 'fs') }}
