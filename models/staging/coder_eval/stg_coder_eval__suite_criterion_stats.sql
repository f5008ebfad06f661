{%- set fields = [
    ('criterion_type', '$.criterion_type', 'varchar'),
    ('rows_evaluated', '$.rows_evaluated', 'bigint'),
    ('average_score', '$.average_score', 'double'),
    ('error_count', '$.error_count', 'bigint', "0")
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
    cs.position,
    {{ ce_typed_columns('cs.value', fields) }},
    {{ ce_invalid_fields('cs.value', fields) }} as invalid_fields,
    {{ ce_invalid_fields('cs.value', fields) }} is not null as has_invalid_fields
from source as d
{{ json_each('d.document', '$.criterion_stats', 'cs') }}
