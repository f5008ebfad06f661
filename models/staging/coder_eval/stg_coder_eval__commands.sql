with iterations as (select * from {{ ref('base_coder_eval__task_iterations') }})

select
    {{ coder_eval_replicate_identity('i') }},
    i.iteration_index,
    c.position as command_index,
    {{ json_text('c.value', '$.tool_name') }} as tool_name,
    {{ json_text('c.value', '$.tool_id') }} as tool_id,
    {{ coder_eval_typed('c.value', '$.assistant_turn_index', 'integer') }} as assistant_turn_index,
    {{ parse_utc_timestamp(json_text('c.value', '$.timestamp')) }} as command_timestamp,
    {{ coder_eval_typed('c.value', '$.duration_ms', 'double') }} as duration_ms,
    {{ parse_utc_timestamp(json_text('c.value', '$.generation_completed_at')) }} as generation_completed_at,
    {{ parse_utc_timestamp(json_text('c.value', '$.execution_started_at')) }} as execution_started_at,
    {{ parse_utc_timestamp(json_text('c.value', '$.execution_completed_at')) }} as execution_completed_at,
    {{ json_fragment('c.value', '$.parameters') }} as parameters_json,
    {{ json_text('c.value', '$.result_status') }} as result_status,
    {{ json_text('c.value', '$.result_summary') }} as result_summary,
    {{ json_text('c.value', '$.error_message') }} as error_message,
    coalesce({{ coder_eval_typed('c.value', '$.sequence_number', 'integer') }}, 0) as sequence_number,
    {{ coder_eval_typed('c.value', '$.result_tokens', 'bigint') }} as result_tokens,
    {{ coder_eval_provenance('i') }}
from iterations as i
{{ json_each('i.iteration_json', '$.commands', 'c') }}
