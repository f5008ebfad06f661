{%- set fields = [
    ('metric_value', '$', 'double')
] -%}

with aggregates as (select * from {{ ref('base_coder_eval__suite_criterion_aggregates') }})

select
    {{ star_except('a', ['criterion_type', 'criterion_description', 'aggregate_json']) }},
    m.key as metric_name,
    m.position,
    a.criterion_type,
    {{ coder_eval_typed_block('m.value', fields) }}
from aggregates as a
{{ json_each_entry('a.aggregate_json', '$.metrics', 'm') }}
