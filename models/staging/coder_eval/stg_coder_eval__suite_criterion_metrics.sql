{%- set fields = [
    ('metric_value', '$', 'double')
] -%}

with source as (
    select * from {{ source('coder_eval', 'ce_suite_docs') }}
)

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    ca.position as aggregate_position,
    m.key as metric_name,
    m.position,
    {{ json_text('ca.value', '$.criterion_type') }} as criterion_type,
    {{ coder_eval_typed_block('m.value', fields) }}
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
{{ json_each_entry('ca.value', '$.metrics', 'm') }}
