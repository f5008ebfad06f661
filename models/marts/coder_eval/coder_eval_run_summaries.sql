{#-
  One row per run: run.json's stored counts, rates and costs next to the same figures recomputed from
  fct_coder_eval_replicates. Neither side is preferred (R24): both are columns, and the flags say whether they agree.
-#}
with runs as (select * from {{ ref('stg_coder_eval__runs') }}),

recomputed as (select * from {{ ref('int_coder_eval__run_recomputed') }}),

replicates as (select * from {{ ref('int_coder_eval__replicates') }}),

-- one row per (run, task): the cluster of the run's intervals (replicates and variants of one task
-- share the task; the interval therefore pools the run's variants, which ci_pools_variants says)
task_clusters as (
    select
        x.run_dir,
        x.task_id,
        sum(case when x.is_graded then 1 else 0 end) as n_graded,
        sum(case when x.is_graded and x.is_succeeded then 1 else 0 end) as n_succeeded,
        sum(case when x.is_graded and x.status_category = 'error' then 1 else 0 end) as n_error
    from replicates as x
    group by x.run_dir, x.task_id
),

run_clusters as (
    select
        t.run_dir,
        count(case when t.n_graded > 0 then 1 end) as n_clusters,
        {{ cluster_se('t.n_succeeded', 't.n_graded') }} as pass_rate_se,
        {{ cluster_se('t.n_error', 't.n_graded') }} as error_share_se
    from task_clusters as t
    group by t.run_dir
),

run_variants as (
    select
        x.run_dir,
        count(distinct x.variant_id) as n_variants
    from replicates as x
    group by x.run_dir
)

select
    r.run_id,
    r.run_dir,
    r.framework_version,
    r.start_time,
    r.end_time,
    r.start_time_is_naive,
    r.tasks_run as tasks_run_stored,
    c.tasks_run as tasks_run_recomputed,
    r.tasks_succeeded as tasks_succeeded_stored,
    c.tasks_succeeded as tasks_succeeded_recomputed,
    r.tasks_failed as tasks_failed_stored,
    c.tasks_failed as tasks_failed_recomputed,
    r.tasks_error as tasks_error_stored,
    c.tasks_error as tasks_error_recomputed,
    r.tasks_not_graded as tasks_not_graded_stored,
    c.tasks_not_graded as tasks_not_graded_recomputed,
    r.tasks_measured as tasks_measured_stored,
    c.tasks_measured as tasks_measured_recomputed,
    r.tasks_token_budget_exceeded as tasks_token_budget_exceeded_stored,
    c.tasks_token_budget_exceeded as tasks_token_budget_exceeded_recomputed,
    r.tasks_cost_budget_exceeded as tasks_cost_budget_exceeded_stored,
    c.tasks_cost_budget_exceeded as tasks_cost_budget_exceeded_recomputed,
    coalesce(r.tasks_graded_stored, r.tasks_run - r.tasks_not_graded) as tasks_graded_stored,
    c.tasks_graded as tasks_graded_recomputed,
    r.pass_rate_stored,
    c.pass_rate as pass_rate_recomputed,
    -- R25: intervals clustered by task (Wilson at the design-effect n, t(C-1)), NULL when the rate is
    -- (coder-eval's graded = 0 / nothing_was_measured guard) or with fewer than 2 tasks
    {{ clustered_rate_interval_columns('c.pass_rate', 'c.tasks_succeeded', 'c.tasks_graded', 'k.pass_rate_se', 'k.n_clusters',
                                       'pass_rate_recomputed') }},
    cast({{ ci_null_reason('c.pass_rate', 'k.n_clusters') }} as {{ dbt.type_string() }}) as pass_rate_recomputed_ci_reason,
    r.error_share_stored,
    c.error_share as error_share_recomputed,
    {{ clustered_rate_interval_columns('c.error_share', 'c.tasks_error', 'c.tasks_graded', 'k.error_share_se', 'k.n_clusters',
                                       'error_share_recomputed') }},
    cast({{ ci_null_reason('c.error_share', 'k.n_clusters') }} as {{ dbt.type_string() }}) as error_share_recomputed_ci_reason,
    cast(coalesce(k.n_clusters, 0) as bigint) as n_clusters,
    coalesce(v.n_variants, 0) > 1 as ci_pools_variants,
    r.has_pass_rate_stored,
    c.nothing_was_measured,
    r.tasks_cost_incomplete_stored,
    c.tasks_cost_incomplete as n_cost_incomplete,
    r.cost_complete_stored,
    c.cost_complete,
    r.agent_cost_usd_stored,
    c.agent_cost_usd,
    r.eval_overhead_cost_usd_stored,
    c.eval_overhead_cost_usd,
    r.total_cost_usd_stored,
    c.total_cost_usd,
    coalesce(
        r.tasks_run = c.tasks_run
        and r.tasks_succeeded = c.tasks_succeeded
        and r.tasks_failed = c.tasks_failed
        and r.tasks_error = c.tasks_error
        and r.tasks_not_graded = c.tasks_not_graded
        and r.tasks_token_budget_exceeded = c.tasks_token_budget_exceeded
        and r.tasks_cost_budget_exceeded = c.tasks_cost_budget_exceeded
        and (not r.has_tasks_measured or r.tasks_measured = c.tasks_measured),
        false
    ) as counts_consistent,
    case
        when r.has_pass_rate_stored
            then (r.pass_rate_stored is not distinct from c.pass_rate)
                and (r.error_share_stored is not distinct from c.error_share)
    end as pass_rate_consistent,
    c.n_replicates_without_task_json,
    r.n_skipped_tasks,
    c.first_started_at,
    c.last_started_at,
    r.source_file,
    r.load_id,
    r.document_sha256
from runs as r
left join recomputed as c
    on r.run_dir = c.run_dir
left join run_clusters as k
    on r.run_dir = k.run_dir
left join run_variants as v
    on r.run_dir = v.run_dir
