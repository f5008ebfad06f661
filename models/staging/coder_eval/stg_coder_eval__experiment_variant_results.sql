{%- set fields = [
    ('variant_id', '$.variant_id', 'varchar'),
    ('task_id', '$.task_id', 'varchar'),
    ('weighted_score', '$.weighted_score', 'double'),
    ('final_status', '$.final_status', 'varchar'),
    ('duration_seconds', '$.duration_seconds', 'double'),
    ('total_tokens', '$.total_tokens', 'bigint'),
    ('iteration_count', '$.iteration_count', 'bigint'),
    ('total_assistant_turns', '$.total_assistant_turns', 'bigint'),
    ('reference_similarity', '$.reference_similarity', 'double'),
    ('replicate_index', '$.replicate_index', 'bigint', "0"),
    ('replicate_count', '$.replicate_count', 'bigint', "1")
] -%}

with source as (select * from {{ source('coder_eval', 'ce_experiment_docs') }})

select
    {{ coder_eval_report_provenance('d') }},
    ts.position as summary_position,
    vr.position as result_position,
    {{ json_text('ts.value', '$.task_id') }} as summary_task_id,
    {{ coder_eval_typed_block('vr.value', fields) }}
from source as d
{{ json_each('d.document', '$.task_summaries', 'ts') }}
{{ json_each('ts.value', '$.variant_results', 'vr') }}
