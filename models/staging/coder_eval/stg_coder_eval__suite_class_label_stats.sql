{%- set fields = [
    ('label', '$.label', 'varchar'),
    ('label_precision', '$.precision', 'double'),
    ('label_recall', '$.recall', 'double'),
    ('label_f1', '$.f1', 'double'),
    ('support', '$.support', 'bigint')
] -%}

with aggregates as (select * from {{ ref('base_coder_eval__suite_criterion_aggregates') }})

select
    {{ star_except('a', ['criterion_type', 'criterion_description', 'aggregate_json']) }},
    pl.position,
    {{ coder_eval_typed_block('pl.value', fields) }}
from aggregates as a
{{ json_each('a.aggregate_json', '$.details.per_label', 'pl') }}
