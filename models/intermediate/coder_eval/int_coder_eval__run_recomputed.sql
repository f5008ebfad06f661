{#-
  Per run: the RunSummary counts, rates and costs recomputed from the replicate rows with coder-eval's
  own formulas (models/results.py build_run_summary): categories via the seed, tasks_graded = run - not_graded,
  pass_rate / error_share NULL when nothing_was_measured(not_graded, measured) or graded = 0,
  sum_costs (NULL only when every component is NULL), cost_complete = no row with cost_complete false.
-#}
with replicates as (select * from {{ ref('int_coder_eval__replicates') }}),

counts as (
    select
        run_dir,
        run_id,
        count(*) as tasks_run,
        count(*) filter (where status_category = 'succeeded') as tasks_succeeded,
        count(*) filter (where status_category = 'failed') as tasks_failed,
        count(*) filter (where status_category = 'error') as tasks_error,
        count(*) filter (where status_category = 'ungraded') as tasks_not_graded,
        count(*) filter (where status_category is null) as tasks_unknown_status,
        count(*) filter (where is_measured) as tasks_measured,
        count(*) filter (where final_status = 'TOKEN_BUDGET_EXCEEDED') as tasks_token_budget_exceeded,
        count(*) filter (where final_status = 'COST_BUDGET_EXCEEDED') as tasks_cost_budget_exceeded,
        count(*) filter (where cost_complete = false) as tasks_cost_incomplete,
        sum(agent_cost_usd) as agent_cost_usd,
        case
            when count(judge_cost_usd) + count(simulator_cost_usd) > 0
                then coalesce(sum(judge_cost_usd), 0) + coalesce(sum(simulator_cost_usd), 0)
        end as eval_overhead_cost_usd,
        sum(total_cost_usd) as total_cost_usd,
        min(started_at) as first_started_at,
        max(started_at) as last_started_at,
        count(*) filter (where record_source = 'run_json_row') as n_replicates_without_task_json
    from replicates
    group by run_dir, run_id
)

select
    c.*,
    c.tasks_run - c.tasks_not_graded as tasks_graded,
    (c.tasks_not_graded > 0 and c.tasks_measured = 0) as nothing_was_measured,
    case
        when c.tasks_not_graded > 0 and c.tasks_measured = 0 then null
        when c.tasks_run - c.tasks_not_graded = 0 then null
        else cast(c.tasks_succeeded as double) / (c.tasks_run - c.tasks_not_graded)
    end as pass_rate,
    case
        when c.tasks_not_graded > 0 and c.tasks_measured = 0 then null
        when c.tasks_run - c.tasks_not_graded = 0 then null
        else cast(c.tasks_error as double) / (c.tasks_run - c.tasks_not_graded)
    end as error_share,
    c.tasks_cost_incomplete = 0 as cost_complete
from counts as c
