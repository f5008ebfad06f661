{%- set fields = [
    ('metric', '$.metric', 'varchar'),
    ('min_value', '$.min_value', 'double'),
    ('actual_value', '$.actual_value', 'double'),
    ('passed_stored', '$.passed', 'boolean')
] -%}

with aggregates as (select * from {{ ref('base_coder_eval__suite_criterion_aggregates') }})

select
    {{ star_except('a', ['criterion_type', 'criterion_description', 'aggregate_json']) }},
    tc.position,
    a.criterion_type,
    a.criterion_description,
    {{ coder_eval_typed_block('tc.value', fields) }}
from aggregates as a
{{ json_each('a.aggregate_json', '$.threshold_checks', 'tc') }}
