{%- set fields = [
    ('label', '$.label', 'varchar'),
    ('label_precision', '$.precision', 'double'),
    ('label_recall', '$.recall', 'double'),
    ('label_f1', '$.f1', 'double'),
    ('support', '$.support', 'bigint')
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
    pl.position,
    {{ ce_typed_columns('pl.value', fields) }},
    {{ ce_invalid_fields('pl.value', fields) }} as invalid_fields,
    {{ ce_invalid_fields('pl.value', fields) }} is not null as has_invalid_fields
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
{{ json_each('ca.value', '$.details.per_label', 'pl') }}
