{%- set fields = [
    ('metric', '$.metric', 'varchar'),
    ('min_value', '$.min_value', 'double'),
    ('actual_value', '$.actual_value', 'double'),
    ('passed_stored', '$.passed', 'boolean')
] -%}

with source as (
    select * from {{ source('coder_eval', 'ce_suite_docs') }}
)

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    ca.position as aggregate_position,
    tc.position,
    {{ json_text('ca.value', '$.criterion_type') }} as criterion_type,
    {{ json_text('ca.value', '$.description') }} as criterion_description,
    {{ coder_eval_typed_block('tc.value', fields) }}
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
{{ json_each('ca.value', '$.threshold_checks', 'tc') }}
