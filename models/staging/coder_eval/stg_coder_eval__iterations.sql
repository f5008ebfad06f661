with iterations as (select * from {{ ref('base_coder_eval__task_iterations') }})

select
    {{ coder_eval_replicate_identity('i') }},
    i.iteration_index,
    {{ coder_eval_typed('i.iteration_json', '$.iteration', 'integer') }} as iteration,
    i.iterations_key,
    {{ parse_utc_timestamp(json_text('i.iteration_json', '$.timestamp')) }} as iteration_timestamp,
    coalesce({{ coder_eval_typed('i.iteration_json', '$.duration_seconds', 'double') }}, 0.0) as duration_seconds,
    {{ coder_eval_typed('i.iteration_json', '$.harness_startup_ms', 'double') }} as harness_startup_ms,
    {{ coder_eval_typed('i.iteration_json', '$.harness_teardown_ms', 'double') }} as harness_teardown_ms,
    {{ coder_eval_typed('i.iteration_json', '$.tool_union_ms', 'double') }} as tool_union_ms,
    {{ coder_eval_is_object('i.iteration_json', '$.token_usage') }} as has_token_usage,
    {{ coder_eval_token_usage_columns('i.iteration_json', '$.token_usage', 'turn_') }},
    {{ json_text('i.iteration_json', '$.model_used') }} as model_used,
    coalesce({{ coder_eval_typed('i.iteration_json', '$.assistant_turn_count', 'integer') }}, 0) as assistant_turn_count,
    coalesce({{ json_array_length('i.iteration_json', '$.messages') }}, 0) as n_messages,
    coalesce({{ json_array_length('i.iteration_json', '$.commands') }}, 0) as n_commands,
    {{ coder_eval_typed('i.iteration_json', '$.num_turns', 'integer') }} as num_turns,
    coalesce({{ coder_eval_typed('i.iteration_json', '$.max_turns_exhausted', 'boolean') }}, false) as max_turns_exhausted,
    {{ coder_eval_typed('i.iteration_json', '$.result_summary.is_error', 'boolean') }} as result_is_error,
    {{ json_text('i.iteration_json', '$.result_summary.subtype') }} as result_subtype,
    {{ json_text('i.iteration_json', '$.result_summary.stop_reason') }} as result_stop_reason,
    coalesce(trim(coalesce({{ json_text('i.iteration_json', '$.result_summary.result') }}, '')) <> '', false)
        as has_final_reply,
    coalesce({{ json_array_length('i.iteration_json', '$.provider_call_costs') }}, 0) as n_provider_call_costs,
    coalesce({{ json_array_length('i.iteration_json', '$.provider_errors') }}, 0) as n_provider_errors,
    coalesce({{ coder_eval_typed('i.iteration_json', '$.crashed', 'boolean') }}, false) as crashed,
    {{ json_text('i.iteration_json', '$.crash_reason') }} as crash_reason,
    {{ coder_eval_provenance('i') }}
from iterations as i
