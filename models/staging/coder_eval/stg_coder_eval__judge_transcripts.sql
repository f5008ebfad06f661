with source as (select * from {{ source('coder_eval', 'ce_judge_docs') }})

select
    d.run_dir,
    d.run_id,
    d.variant_id,
    d.task_id,
    d.suite_id,
    d.row_id,
    d.replicate_index,
    d.judge_phase as result_phase,
    d.judge_index as criterion_index,
    {{ regex_first_match('d.source_file', "'[^/\\\\]+$'") }} as transcript_file_name,
    coalesce({{ coder_eval_typed('d.document', '$.duration_seconds', 'double') }}, 0.0) as duration_seconds,
    coalesce({{ coder_eval_typed('d.document', '$.truncated', 'boolean') }}, false) as truncated,
    {{ coder_eval_token_usage_columns('d.document', '$.token_usage', 'judge_') }},
    coalesce({{ json_array_length('d.document', '$.tool_calls') }}, 0) as n_tool_calls,
    {{ json_text('d.document', '$.judge_system_prompt') }} as judge_system_prompt,
    {{ json_text('d.document', '$.judge_prompt') }} as judge_prompt,
    {{ json_text('d.document', '$.raw_verdict') }} as raw_verdict,
    {{ coder_eval_provenance('d') }}
from source as d
