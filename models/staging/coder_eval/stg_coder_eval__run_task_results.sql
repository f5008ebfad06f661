with source as (
    select * from {{ source('coder_eval', 'ce_run_docs') }}
),

rows_ as (
    select
        d.run_dir,
        d.run_id,
        {{ coder_eval_provenance('d') }},
        r.position as row_index,
        r.value as row_json
    from source as d
    {{ json_each('d.document', '$.task_results', 'r') }}
)

select
    run_dir,
    run_id,
    row_index,
    {{ json_text('row_json', '$.variant_id') }} as variant_id,
    {{ json_text('row_json', '$.task_id') }} as task_id,
    {{ coder_eval_typed('row_json', '$.replicate_index', 'integer') }} as replicate_index,
    {{ json_text('row_json', '$.status') }} as final_status,
    {{ coder_eval_typed('row_json', '$.weighted_score', 'double') }} as weighted_score,
    {{ coder_eval_typed('row_json', '$.duration', 'double') }} as duration_seconds,
    {{ coder_eval_typed('row_json', '$.iteration_count', 'integer') }} as iteration_count,
    {{ json_fragment('row_json', '$.tags') }} as tags_json,
    {{ json_text('row_json', '$.task_path') }} as task_path,
    coalesce({{ json_array_length('row_json', '$.iterations') }}, {{ json_array_length('row_json', '$.turns') }})
        as n_iteration_digests,
    ({{ json_has('row_json', '$.turns') }} and not {{ json_has('row_json', '$.iterations') }}) as uses_legacy_turns_key,
    {{ coder_eval_typed('row_json', '$.startup_ms', 'double') }} as startup_ms,
    {{ coder_eval_typed('row_json', '$.generation_ms', 'double') }} as generation_ms,
    {{ coder_eval_typed('row_json', '$.tool_ms', 'double') }} as tool_ms,
    {{ coder_eval_typed('row_json', '$.teardown_ms', 'double') }} as teardown_ms,
    {{ coder_eval_typed('row_json', '$.agent_wall_ms', 'double') }} as agent_wall_ms,
    {{ coder_eval_typed('row_json', '$.setup_ms', 'double') }} as setup_ms,
    {{ coder_eval_typed('row_json', '$.grading_ms', 'double') }} as grading_ms,
    {{ json_text('row_json', '$.model_used') }} as model_used,
    {{ coder_eval_typed('row_json', '$.reference_similarity', 'double') }} as reference_similarity,
    {{ coder_eval_typed('row_json', '$.input_tokens', 'bigint') }} as uncached_input_tokens,
    {{ coder_eval_typed('row_json', '$.output_tokens', 'bigint') }} as output_tokens,
    {{ coder_eval_typed('row_json', '$.cache_creation_input_tokens', 'bigint') }} as cache_creation_input_tokens,
    {{ coder_eval_typed('row_json', '$.cache_read_input_tokens', 'bigint') }} as cache_read_input_tokens,
    {{ coder_eval_typed('row_json', '$.total_tokens', 'bigint') }} as total_tokens,
    {{ coder_eval_typed('row_json', '$.total_cost_usd', 'double') }} as total_cost_usd,
    {{ coder_eval_typed('row_json', '$.agent_cost_usd', 'double') }} as agent_cost_usd,
    {{ coder_eval_typed('row_json', '$.judge_cost_usd', 'double') }} as judge_cost_usd,
    {{ coder_eval_typed('row_json', '$.simulator_cost_usd', 'double') }} as simulator_cost_usd,
    {{ coder_eval_typed('row_json', '$.cost_complete', 'boolean') }} as cost_complete,
    {{ json_has('row_json', '$.agent_cost_usd') }} as has_cost_breakdown,
    {{ json_text('row_json', '$.error_message') }} as error_message,
    {{ json_text('row_json', '$.error_category') }} as error_category,
    {{ coder_eval_typed('row_json', '$.expected_commands', 'integer') }} as expected_commands,
    {{ coder_eval_typed('row_json', '$.actual_commands', 'integer') }} as actual_commands,
    {{ coder_eval_typed('row_json', '$.commands_efficiency', 'double') }} as commands_efficiency,
    {{ json_fragment('row_json', '$.agent_config') }} as agent_config_json,
    {{ json_fragment('row_json', '$.sdk_options') }} as sdk_options_json,
    {{ json_fragment('row_json', '$.installed_tools') }} as installed_tools_json,
    {{ coder_eval_typed('row_json', '$.max_turns_exhausted', 'boolean') }} as max_turns_exhausted,
    {{ json_fragment('row_json', '$.expected_turns_overage') }} as expected_turns_overage_json,
    {{ coder_eval_typed('row_json', '$.total_turns', 'integer') }} as total_turns,
    {{ coder_eval_typed('row_json', '$.visible_turns', 'integer') }} as visible_turns,
    {{ coder_eval_typed('row_json', '$.expected_turns', 'integer') }} as expected_turns,
    {{ coder_eval_typed('row_json', '$.has_final_reply', 'boolean') }} as has_final_reply,
    {{ coder_eval_typed('row_json', '$.stopped_early', 'boolean') }} as stopped_early,
    {{ json_text('row_json', '$.early_stop_reason') }} as early_stop_reason,
    {{ coder_eval_typed('row_json', '$.turns_remaining_at_stop', 'integer') }} as turns_remaining_at_stop,
    {{ coder_eval_typed('row_json', '$.gate_threshold', 'double') }} as gate_threshold,
    source_file,
    load_id,
    document_sha256
from rows_
