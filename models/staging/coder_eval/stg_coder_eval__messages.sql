with iterations as (select * from {{ ref('base_coder_eval__task_iterations') }})

select
    {{ coder_eval_replicate_identity('i') }},
    i.iteration_index,
    m.position as message_index,
    {{ json_text('m.value', '$.role') }} as message_role,
    {{ parse_utc_timestamp(json_text('m.value', '$.started_at')) }} as started_at,
    {{ parse_utc_timestamp(json_text('m.value', '$.completed_at')) }} as completed_at,
    {{ coder_eval_typed('m.value', '$.generation_duration_ms', 'double') }} as generation_duration_ms,
    coalesce({{ json_array_length('m.value', '$.content_blocks') }}, 0) as n_content_blocks,
    coalesce({{ json_array_length('m.value', '$.tool_use_ids') }}, 0) as n_tool_use_ids,
    coalesce({{ coder_eval_typed('m.value', '$.input_tokens', 'bigint') }}, 0) as uncached_input_tokens,
    coalesce({{ coder_eval_typed('m.value', '$.cache_creation_tokens', 'bigint') }}, 0) as cache_creation_input_tokens,
    coalesce({{ coder_eval_typed('m.value', '$.cache_read_tokens', 'bigint') }}, 0) as cache_read_input_tokens,
    coalesce({{ coder_eval_typed('m.value', '$.output_tokens', 'bigint') }}, 0) as output_tokens,
    coalesce({{ coder_eval_typed('m.value', '$.reasoning_tokens', 'bigint') }}, 0) as reasoning_tokens,
    {{ json_text('m.value', '$.stop_reason') }} as stop_reason,
    {{ json_text('m.value', '$.model') }} as model,
    {{ json_text('m.value', '$.message_id') }} as message_id,
    {{ json_text('m.value', '$.parent_tool_use_id') }} as parent_tool_use_id,
    {{ json_text('m.value', '$.text') }} as user_text,
    {{ coder_eval_typed('m.value', '$.stop_requested', 'boolean') }} as stop_requested,
    coalesce({{ coder_eval_typed('m.value', '$.simulator_failed', 'boolean') }}, false) as simulator_failed,
    {{ json_text('m.value', '$.note') }} as reconciliation_note,
    {{ coder_eval_provenance('i') }}
from iterations as i
{{ json_each('i.iteration_json', '$.messages', 'm') }}
