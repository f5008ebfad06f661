with source as (
    select * from {{ source('coder_eval', 'ce_run_docs') }}
)

select
    d.run_dir,
    d.run_id,
    {{ json_text('d.document', '$.run_id') }} as run_id_stored,
    {{ parse_utc_timestamp(json_text('d.document', '$.start_time')) }} as start_time,
    {{ is_naive_timestamp(json_text('d.document', '$.start_time')) }} as start_time_is_naive,
    {{ parse_utc_timestamp(json_text('d.document', '$.end_time')) }} as end_time,
    {{ coder_eval_typed('d.document', '$.total_duration_seconds', 'double') }} as total_duration_seconds,
    {{ coder_eval_typed('d.document', '$.tasks_run', 'bigint') }} as tasks_run,
    {{ coder_eval_typed('d.document', '$.tasks_succeeded', 'bigint') }} as tasks_succeeded,
    {{ coder_eval_typed('d.document', '$.tasks_failed', 'bigint') }} as tasks_failed,
    {{ coder_eval_typed('d.document', '$.tasks_error', 'bigint') }} as tasks_error,
    coalesce({{ coder_eval_typed('d.document', '$.tasks_not_graded', 'bigint') }}, 0) as tasks_not_graded,
    coalesce({{ coder_eval_typed('d.document', '$.tasks_measured', 'bigint') }}, 0) as tasks_measured,
    {{ json_has('d.document', '$.tasks_not_graded') }} as has_tasks_not_graded,
    {{ json_has('d.document', '$.tasks_measured') }} as has_tasks_measured,
    coalesce({{ coder_eval_typed('d.document', '$.tasks_token_budget_exceeded', 'bigint') }}, 0)
        as tasks_token_budget_exceeded,
    coalesce({{ coder_eval_typed('d.document', '$.tasks_cost_budget_exceeded', 'bigint') }}, 0)
        as tasks_cost_budget_exceeded,
    cast(coalesce({{ json_array_length('d.document', '$.skipped_tasks') }}, 0) as bigint) as n_skipped_tasks,
    {{ json_array_length('d.document', '$.task_results') }} as n_task_results,
    coalesce({{ coder_eval_typed('d.document', '$.max_parallel', 'bigint') }}, 1) as max_parallel,
    {{ json_text('d.document', '$.framework_version') }} as framework_version,
    {{ json_fragment('d.document', '$.environment_info') }} as environment_info_json,
    {{ coder_eval_typed('d.document', '$.tasks_graded', 'bigint') }} as tasks_graded_stored,
    {{ coder_eval_typed('d.document', '$.pass_rate', 'double') }} as pass_rate_stored,
    {{ coder_eval_typed('d.document', '$.error_share', 'double') }} as error_share_stored,
    {{ json_has('d.document', '$.pass_rate') }} as has_pass_rate_stored,
    {{ json_has('d.document', '$.error_share') }} as has_error_share_stored,
    {{ coder_eval_typed('d.document', '$.tasks_cost_incomplete', 'bigint') }} as tasks_cost_incomplete_stored,
    {{ coder_eval_typed('d.document', '$.cost_complete', 'boolean') }} as cost_complete_stored,
    {{ coder_eval_typed('d.document', '$.agent_cost_usd', 'double') }} as agent_cost_usd_stored,
    {{ coder_eval_typed('d.document', '$.eval_overhead_cost_usd', 'double') }} as eval_overhead_cost_usd_stored,
    {{ coder_eval_typed('d.document', '$.total_cost_usd', 'double') }} as total_cost_usd_stored,
    d.source_file,
    d.load_id,
    d.loaded_at,
    d.document_sha256,
    d.file_sha256,
    d.repaired
from source as d
