{%- set fields = [
    ('metric', '$.metric', 'varchar'),
    ('min_value', '$.min_value', 'double'),
    ('actual_value', '$.actual_value', 'double'),
    ('passed_stored', '$.passed', 'boolean')
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
    tc.position,
    {{ json_text('ca.value', '$.criterion_type') }} as criterion_type,
    {{ json_text('ca.value', '$.description') }} as criterion_description,
    {{ ce_typed_columns('tc.value', fields) }},
    {{ ce_invalid_fields('tc.value', fields) }} as invalid_fields,
    {{ ce_invalid_fields('tc.value', fields) }} is not null as has_invalid_fields
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
{{ json_each('ca.value', '$.threshold_checks', 'tc') }}
