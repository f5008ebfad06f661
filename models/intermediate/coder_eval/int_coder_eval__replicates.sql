{#-
  One row per (run, variant, task, replicate) that run.json lists: the task.json record when it exists, else the
  run.json task_results row (a replicate whose task.json is missing), its status category from the
  final_status_categories seed (a FAILURE without any criterion result as NOT_GRADED, R37), its model
  id normalised (model_aliases), and whether its task was graded by more than one set of criteria in the run (R39).
  task.execute.json is never read (R19). fct_coder_eval_replicates is this
  model under a contract.
-#}
with tasks as (select * from {{ ref('stg_coder_eval__tasks') }}),

run_rows as (select * from {{ ref('stg_coder_eval__run_task_results') }}),

turns as (select * from {{ ref('int_coder_eval__replicate_turn_rollups') }}),

judges as (select * from {{ ref('int_coder_eval__replicate_judge_costs') }}),

-- a run's replicates are the ones its run.json lists: a task.json it does not list was left in the run directory by
-- an earlier run into the same --run-dir (coder-eval never clears it), and is an R38 finding instead
listed_tasks as (
    select t.*
    from tasks as t
    where exists (
            select 1
            from run_rows as r
            where
                {{ coder_eval_same_replicate('t', 'r') }}
        )
),

-- the criteria a task was graded by in the run (records whose criteria ran; a NOT_GRADED or errored record states the
-- task's criteria but was graded by none): coder-eval gives every variant and replicate of a task the same list;
-- `coder-eval evaluate <task file> <replicate dir>` regrades one replicate by another file's, and `coder-eval run
-- --resume` runs the rest by the task file as edited since (R39)
task_criteria_sets as (
    select
        run_dir,
        task_id,
        count(distinct success_criteria_json) as n_criteria_sets
    from listed_tasks
    where success_criteria_json is not null and n_success_criteria > 0
    group by run_dir, task_id
),

-- the regime of a variant, when all its task.json replicates that carry evidence agree
variant_regimes as (
    select
        run_dir,
        variant_id,
        min(system_prompt_regime) as system_prompt_regime,
        count(distinct system_prompt_regime) as n_regimes
    from listed_tasks
    where system_prompt_regime is not null
    group by run_dir, variant_id
),

from_task_json as (
    select
        t.run_dir,
        t.run_id,
        t.variant_id,
        t.task_id,
        t.suite_id,
        t.row_id,
        t.replicate_index,
        'task_json' as record_source,
        t.final_status,
        -- coder-eval's placeholder status: a replicate cancelled during setup or grading is written as FAILURE with no
        -- criterion result (orchestrator.py initialises final_status to FAILURE and finalises it on cancellation); R37
        (
            t.final_status = 'FAILURE' and t.n_success_criteria = 0 and t.n_post_failure_criteria = 0
        ) as is_failure_without_verdict,
        t.weighted_score,
        t.duration_seconds,
        t.iteration_count,
        t.total_assistant_turns,
        coalesce(tu.total_turns, 0) as total_turns,
        t.total_uncached_input_tokens as uncached_input_tokens,
        t.total_cache_creation_input_tokens as cache_creation_input_tokens,
        t.total_cache_read_input_tokens as cache_read_input_tokens,
        t.total_output_tokens as output_tokens,
        t.total_cost_usd as agent_cost_usd,
        j.judge_cost_usd,
        r.simulator_cost_usd,
        t.simulator_input_tokens,
        t.simulator_output_tokens,
        t.simulator_model,
        case
            when t.final_status = 'TIMEOUT' then false
            else coalesce(tu.n_unpriced_spending_turns, 0) = 0
        end as cost_complete,
        tu.provider_actual_cost_usd,
        coalesce(tu.n_provider_calls, 0) as n_provider_calls,
        t.system_prompt_regime,
        t.stopped_early,
        t.early_stop_reason,
        t.started_at,
        t.started_at_is_naive,
        t.model_used as model,
        t.agent_type,
        t.total_is_legacy_input_tokens as is_legacy_token_usage,
        t.source_file,
        t.load_id,
        t.document_sha256
    from listed_tasks as t
    left join turns as tu
        on
            {{ coder_eval_same_replicate('t', 'tu') }}
    left join judges as j
        on
            {{ coder_eval_same_replicate('t', 'j') }}
    left join run_rows as r
        on
            {{ coder_eval_same_replicate('t', 'r') }}
),

from_run_json as (
    select
        r.run_dir,
        r.run_id,
        r.variant_id,
        r.task_id,
        case when instr(r.task_id, '/') > 0 then split_part(r.task_id, '/', 1) end as suite_id,
        case when instr(r.task_id, '/') > 0 then split_part(r.task_id, '/', 2) end as row_id,
        r.replicate_index,
        'run_json_row' as record_source,
        r.final_status,
        false as is_failure_without_verdict,
        r.weighted_score,
        r.duration_seconds,
        r.iteration_count,
        cast(null as integer) as total_assistant_turns,
        r.total_turns,
        r.uncached_input_tokens,
        r.cache_creation_input_tokens,
        r.cache_read_input_tokens,
        r.output_tokens,
        -- before 0.10.1 the row's total_cost_usd was agent-only and no agent_cost_usd key existed
        case when r.has_cost_breakdown then r.agent_cost_usd else r.total_cost_usd end as agent_cost_usd,
        r.judge_cost_usd,
        r.simulator_cost_usd,
        cast(null as bigint) as simulator_input_tokens,
        cast(null as bigint) as simulator_output_tokens,
        cast(null as {{ dbt.type_string() }}) as simulator_model,
        coalesce(r.cost_complete, true) as cost_complete,
        cast(null as double) as provider_actual_cost_usd,
        0 as n_provider_calls,
        cast(null as {{ dbt.type_string() }}) as system_prompt_regime,
        coalesce(r.stopped_early, false) as stopped_early,
        r.early_stop_reason,
        cast(null as {{ type_timestamptz() }}) as started_at,
        cast(null as boolean) as started_at_is_naive,
        r.model_used as model,
        cast(null as {{ dbt.type_string() }}) as agent_type,
        false as is_legacy_token_usage,
        r.source_file,
        r.load_id,
        r.document_sha256
    from run_rows as r
    where not exists (
            select 1
            from tasks as t
            where
                {{ coder_eval_same_replicate('t', 'r') }}
        )
),

unioned as (
    select * from from_task_json
    union all
    select * from from_run_json
),

replicates as (
    select
        {{ star_except('u', ['system_prompt_regime']) }},
        coalesce(
            u.system_prompt_regime, case when vr.n_regimes = 1 then vr.system_prompt_regime end
        ) as system_prompt_regime,
        u.system_prompt_regime is null as is_system_prompt_regime_inferred,
        coalesce(cs.n_criteria_sets > 1, false) as is_task_criteria_mixed,
        s.status_category,
        s.is_execution_fact,
        s.worst_of_priority
    from unioned as u
    left join variant_regimes as vr
        on
            {{ same_keys('u', 'vr', ['run_dir', 'variant_id']) }}
    left join task_criteria_sets as cs
        on
            {{ same_keys('u', 'cs', ['run_dir', 'task_id']) }}
    -- a FAILURE without a verdict is categorised as the seed's NOT_GRADED: it measured nothing (R37)
    left join {{ ref('final_status_categories') }} as s
        on case when u.is_failure_without_verdict then 'NOT_GRADED' else u.final_status end = s.final_status
),

-- one model key everywhere: the rate card's id (model_aliases seed), the logged spelling beside it
names as {{ model_name_map('replicates', 'model', ref('model_aliases')) }},

named as (
    select
        replicates_raw.*,
        names.model as model_normalised
    from replicates as replicates_raw
    left join names
        on replicates_raw.model = names.model_raw
)

select
    run_id || '|' || variant_id || '|' || task_id || '|' || coalesce(cast(replicate_index as {{ dbt.type_string() }}), '?')
        as replicate_key,
    run_id,
    run_dir,
    variant_id,
    task_id,
    suite_id,
    row_id,
    replicate_index,
    record_source,
    final_status,
    is_failure_without_verdict,
    is_task_criteria_mixed,
    status_category,
    is_execution_fact,
    worst_of_priority,
    coalesce(status_category <> 'ungraded', true) as is_graded,
    (weighted_score is not null) as is_measured,
    (status_category = 'succeeded') as is_succeeded,
    weighted_score,
    case
        when status_category = 'ungraded' then null
        else coalesce(weighted_score, 0.0)
    end as score_for_average,
    duration_seconds,
    iteration_count,
    total_assistant_turns,
    total_turns,
    uncached_input_tokens,
    cache_creation_input_tokens,
    cache_read_input_tokens,
    output_tokens,
    uncached_input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens as total_tokens,
    agent_cost_usd,
    judge_cost_usd,
    simulator_cost_usd,
    simulator_input_tokens,
    simulator_output_tokens,
    simulator_model,
    case
        when agent_cost_usd is not null or judge_cost_usd is not null or simulator_cost_usd is not null
            then coalesce(agent_cost_usd, 0) + coalesce(judge_cost_usd, 0) + coalesce(simulator_cost_usd, 0)
    end as total_cost_usd,
    cost_complete,
    provider_actual_cost_usd,
    n_provider_calls,
    system_prompt_regime,
    is_system_prompt_regime_inferred,
    stopped_early,
    early_stop_reason,
    started_at,
    started_at_is_naive,
    model_normalised as model,
    model as model_raw,
    agent_type,
    is_legacy_token_usage,
    source_file,
    load_id,
    document_sha256
from named
