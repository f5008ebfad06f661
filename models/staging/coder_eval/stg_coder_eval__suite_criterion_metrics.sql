{%- set fields = [
    ('metric_value', '$', 'double')
] -%}

with source as (
    select * from {{ source('coder_eval_reports', 'ce_suite_docs') }}
)

select
    {{ ce_report_provenance('d', ['variant_id', 'suite_id']) }},
    ca.position as aggregate_position,
    m.key as metric_name,
    m.position,
    {{ json_text('ca.value', '$.criterion_type') }} as criterion_type,
    {{ ce_typed_block('m.value', fields) }}
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
{{ json_each_entry('ca.value', '$.metrics', 'm') }}
