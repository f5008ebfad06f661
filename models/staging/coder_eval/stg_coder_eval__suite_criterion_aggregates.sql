{%- set fields = [
    ('criterion_type', '$.criterion_type', 'varchar'),
    ('description', '$.description', 'varchar'),
    ('rows_total', '$.rows_total', 'bigint', "0"),
    ('rows_excluded', '$.rows_excluded', 'bigint', "0"),
    ('metrics_json', '$.metrics', 'json'),
    ('passed', '$.passed', 'boolean'),
    ('details_json', '$.details', 'json'),
    ('error', '$.error', 'varchar'),
    ('total_pairs', '$.details.total_pairs', 'bigint')
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
    ca.position as aggregate_position,
    {{ json_array_length('ca.value', '$.threshold_checks') }} as n_threshold_checks,
    {{ ce_typed_columns('ca.value', fields) }},
    {{ ce_invalid_fields('ca.value', fields) }} as invalid_fields,
    {{ ce_invalid_fields('ca.value', fields) }} is not null as has_invalid_fields
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
