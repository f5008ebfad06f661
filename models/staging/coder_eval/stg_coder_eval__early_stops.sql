with task_docs as (select * from {{ ref('base_coder_eval__task_docs') }})

select
    {{ coder_eval_replicate_identity('d') }},
    {{ coder_eval_is_object('d.document', '$.early_stop') }} as stopped_early,
    {{ json_text('d.document', '$.early_stop.reason') }} as early_stop_reason,
    {{ json_text('d.document', '$.early_stop.deciding_criterion_type') }} as deciding_criterion_type,
    {{ json_text('d.document', '$.early_stop.deciding_criterion_description') }} as deciding_criterion_description,
    {{ json_array_length('d.document', '$.early_stop.armed_criteria') }} as n_armed_criteria,
    {{ coder_eval_typed('d.document', '$.early_stop.sdk_turn_index', 'integer') }} as sdk_turn_index,
    {{ coder_eval_typed('d.document', '$.early_stop.tool_call_index', 'integer') }} as tool_call_index,
    {{ coder_eval_typed('d.document', '$.early_stop.elapsed_seconds', 'double') }} as elapsed_seconds,
    {{ coder_eval_typed('d.document', '$.early_stop.turns_remaining_at_stop', 'integer') }} as turns_remaining_at_stop,
    case when {{ coder_eval_is_object('d.document', '$.early_stop') }}
            then coalesce({{ coder_eval_typed('d.document', '$.early_stop.gate_threshold', 'double') }}, 1.0)
    end as gate_threshold,
    {{ coder_eval_provenance('d') }}
from task_docs as d
where {{ coder_eval_is_object('d.document', '$.early_stop') }}
