{#-
  Typed top-level columns of an EvaluationResult document (task.json, and the audit-only
  task.execute.json which has the same schema). `relation` is a source() relation of raw.ce_*_docs.
-#}
{% macro coder_eval_evaluation_result_select(relation) -%}
select
    d.run_dir,
    d.run_id,
    d.variant_id,
    coalesce(
        {{ json_text('d.document', '$.task_id') }}, d.task_id
    ) as task_id,
    d.task_id as task_id_from_path,
    {{ json_text('d.document', '$.variant_id') }} as variant_id_stored,
    coalesce({{ json_text('d.document', '$.task_config.resolved.suite_id') }}, d.suite_id) as suite_id,
    coalesce({{ json_text('d.document', '$.task_config.resolved.row_id') }}, d.row_id) as row_id,
    d.replicate_index,
    {{ json_text('d.document', '$.task_description') }} as task_description,
    {{ json_text('d.document', '$.agent_type') }} as agent_type,
    {{ json_text('d.document', '$.model_used') }} as model_used,
    {{ parse_utc_timestamp(json_text('d.document', '$.started_at')) }} as started_at,
    {{ is_naive_timestamp(json_text('d.document', '$.started_at')) }} as started_at_is_naive,
    {{ parse_utc_timestamp(json_text('d.document', '$.completed_at')) }} as completed_at,
    coalesce({{ coder_eval_typed('d.document', '$.duration_seconds', 'double') }}, 0.0) as duration_seconds,
    {{ coder_eval_typed('d.document', '$.setup_ms', 'double') }} as setup_ms,
    {{ coder_eval_typed('d.document', '$.grading_ms', 'double') }} as grading_ms,
    {{ json_text('d.document', '$.final_status') }} as final_status,
    coalesce({{ coder_eval_typed('d.document', '$.max_turns_exhausted', 'boolean') }}, false) as max_turns_exhausted,
    {{ coder_eval_typed('d.document', '$.weighted_score', 'double') }} as weighted_score,
    {{ coder_eval_typed('d.document', '$.iteration_count', 'integer') }} as iteration_count,
    coalesce({{ json_array_length('d.document', '$.success_criteria_results') }}, 0) as n_success_criteria,
    coalesce({{ json_array_length('d.document', '$.post_failure_criteria_results') }}, 0) as n_post_failure_criteria,
    coalesce(
        {{ json_array_length('d.document', '$.iterations') }}, {{ json_array_length('d.document', '$.turns') }}, 0
    ) as n_iterations,
    ({{ json_has('d.document', '$.turns') }} and not {{ json_has('d.document', '$.iterations') }})
        as uses_legacy_turns_key,
    {{ json_text('d.document', '$.error_message') }} as error_message,
    {{ json_text('d.document', '$.error_details.error_category') }} as error_category,
    {{ json_text('d.document', '$.error_log_tail') }} as error_log_tail,
    {{ json_text('d.document', '$.environment_info.system_prompt_semantics') }} as system_prompt_semantics,
    case
        -- a synthetic row (BUILD_FAILED, load failure) has environment_info {}: the key's absence is no evidence
        when cast({{ json_fragment('d.document', '$.environment_info') }} as {{ dbt.type_string() }}) = '{}' then null
        -- the orchestrator writes the marker with the routing keys once setup has finished: a record that ended
        -- before that (interrupted, or a sandbox that failed to start) has neither, and is no evidence either
        when not {{ json_has('d.document', '$.environment_info.api_routing') }} then null
        when not {{ json_has('d.document', '$.environment_info.system_prompt_semantics') }} then 'pre_append'
        when {{ json_text('d.document', '$.environment_info.system_prompt_semantics') }} in ('append', 'replace', 'unknown')
            then {{ json_text('d.document', '$.environment_info.system_prompt_semantics') }}
    end as system_prompt_regime,
    coalesce(cast({{ json_fragment('d.document', '$.environment_info') }} as {{ dbt.type_string() }}) = '{}', false)
        as is_synthetic_record,
    {{ json_text('d.document', '$.environment_info.api_routing') }} as api_routing,
    {{ json_text('d.document', '$.environment_info.coder_eval') }} as coder_eval_version,
    {{ json_fragment('d.document', '$.environment_info') }} as environment_info_json,
    {{ json_text('d.document', '$.agent_config.type') }} as agent_config_type,
    {{ json_fragment('d.document', '$.agent_config') }} as agent_config_json,
    {{ json_fragment('d.document', '$.sdk_options') }} as sdk_options_json,
    {{ json_text('d.document', '$.sandbox_path') }} as sandbox_path,
    {{ json_text('d.document', '$.task_config.source_file') }} as task_config_source_file,
    cast({{ json_fragment('d.document', '$.task_config.resolved.success_criteria') }} as {{ dbt.type_string() }})
        as success_criteria_json,
    {{ coder_eval_typed('d.document', '$.task_config.resolved.run_limits.expected_turns', 'integer') }} as expected_turns,
    {{ coder_eval_token_usage_columns('d.document', '$.total_token_usage', 'total_') }},
    {{ coder_eval_typed('d.document', '$.total_assistant_turns', 'integer') }} as total_assistant_turns,
    {{ coder_eval_typed('d.document', '$.expected_commands', 'integer') }} as expected_commands,
    {{ coder_eval_typed('d.document', '$.actual_commands', 'integer') }} as actual_commands,
    {{ coder_eval_typed('d.document', '$.commands_efficiency', 'double') }} as commands_efficiency,
    {{ coder_eval_typed('d.document', '$.command_stats.total_commands', 'integer') }} as command_stats_total_commands,
    {{ coder_eval_typed('d.document', '$.command_stats.successful_commands', 'integer') }} as command_stats_successful_commands,
    {{ coder_eval_typed('d.document', '$.command_stats.failed_commands', 'integer') }} as command_stats_failed_commands,
    {{ coder_eval_typed('d.document', '$.command_stats.success_rate', 'double') }} as command_stats_success_rate_pct,
    coalesce({{ json_array_length('d.document', '$.pre_run_results') }}, 0) as n_pre_run_results,
    coalesce({{ json_array_length('d.document', '$.post_run_results') }}, 0) as n_post_run_results,
    {{ coder_eval_is_object('d.document', '$.simulation') }} as has_simulation,
    {{ coder_eval_typed('d.document', '$.simulation.n_trials', 'integer') }} as simulation_n_trials,
    {{ json_text('d.document', '$.simulation.stop_reason') }} as simulation_stop_reason,
    {{ coder_eval_typed('d.document', '$.simulation.simulator_input_tokens', 'bigint') }} as simulator_input_tokens,
    {{ coder_eval_typed('d.document', '$.simulation.simulator_output_tokens', 'bigint') }} as simulator_output_tokens,
    {{ coder_eval_typed('d.document', '$.simulation.simulator_failures', 'integer') }} as simulator_failures,
    {{ json_text('d.document', '$.simulation.simulator_model') }} as simulator_model,
    {{ coder_eval_is_object('d.document', '$.early_stop') }} as stopped_early,
    {{ json_text('d.document', '$.early_stop.reason') }} as early_stop_reason,
    d.source_file,
    d.load_id,
    d.loaded_at,
    d.document_sha256,
    d.file_sha256,
    d.repaired
from {{ relation }} as d
{%- endmacro %}
