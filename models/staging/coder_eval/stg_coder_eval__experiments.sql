{%- set fields = [
    ('experiment_id', '$.experiment_id', 'varchar'),
    ('description', '$.description', 'varchar'),
    ('variant_ids_json', '$.variant_ids', 'json'),
    ('total_duration_seconds', '$.total_duration_seconds', 'double')
] -%}

with source as (select * from {{ source('coder_eval', 'ce_experiment_docs') }})

select
    {{ coder_eval_report_provenance('d') }},
    {{ json_array_length('d.document', '$.variant_ids') }} as n_variant_ids,
    {{ json_array_length('d.document', '$.task_summaries') }} as n_task_summaries,
    {{ json_has('d.document', '$.per_replicate_scores') }} as has_per_replicate_scores_key,
    {{ coder_eval_typed_block('d.document', fields) }}
from source as d
