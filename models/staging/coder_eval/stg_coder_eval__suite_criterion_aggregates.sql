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

with aggregates as (select * from {{ ref('base_coder_eval__suite_criterion_aggregates') }})

select
    {{ star_except('a', ['criterion_type', 'criterion_description', 'aggregate_json']) }},
    {{ json_array_length('a.aggregate_json', '$.threshold_checks') }} as n_threshold_checks,
    {{ coder_eval_typed_block('a.aggregate_json', fields) }}
from aggregates as a
