{%- set fields = [
    ('expected_label', '$.expected', 'varchar'),
    ('observed_label', '$.observed', 'varchar'),
    ('pair_count', '$.count', 'bigint')
] -%}

with aggregates as (select * from {{ ref('base_coder_eval__suite_criterion_aggregates') }})

select
    {{ star_except('a', ['criterion_type', 'criterion_description', 'aggregate_json']) }},
    cf.position,
    {{ coder_eval_typed_block('cf.value', fields) }}
from aggregates as a
{{ json_each('a.aggregate_json', '$.details.confusion', 'cf') }}
