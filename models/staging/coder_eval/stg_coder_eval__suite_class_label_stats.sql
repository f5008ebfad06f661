{%- set fields = [
    ('label', '$.label', 'varchar'),
    ('label_precision', '$.precision', 'double'),
    ('label_recall', '$.recall', 'double'),
    ('label_f1', '$.f1', 'double'),
    ('support', '$.support', 'bigint')
] -%}

with source as (
    select * from {{ source('coder_eval', 'ce_suite_docs') }}
)

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    ca.position as aggregate_position,
    pl.position,
    {{ coder_eval_typed_block('pl.value', fields) }}
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
{{ json_each('ca.value', '$.details.per_label', 'pl') }}
