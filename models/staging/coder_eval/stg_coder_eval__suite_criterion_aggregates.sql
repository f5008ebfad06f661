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
    select * from {{ source('coder_eval', 'ce_suite_docs') }}
)

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    ca.position as aggregate_position,
    {{ json_array_length('ca.value', '$.threshold_checks') }} as n_threshold_checks,
    {{ coder_eval_typed_block('ca.value', fields) }}
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
