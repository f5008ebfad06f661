{%- set fields = [
    ('task_id', '$.task_id', 'varchar'),
    ('best_variant', '$.best_variant', 'varchar'),
    ('is_tie', '$.is_tie', 'boolean', "false"),
    ('score_spread', '$.score_spread', 'double'),
    ('replicate_count', '$.replicate_count', 'bigint', "1")
] -%}

with source as (select * from {{ source('coder_eval', 'ce_experiment_docs') }})

select
    {{ coder_eval_report_provenance('d') }},
    ts.position as summary_position,
    {{ json_array_length('ts.value', '$.variant_results') }} as n_variant_results,
    {{ coder_eval_typed_block('ts.value', fields) }}
from source as d
{{ json_each('d.document', '$.task_summaries', 'ts') }}
