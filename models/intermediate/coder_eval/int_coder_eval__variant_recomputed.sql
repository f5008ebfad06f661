-- One row per (run, variant) over ALL regimes: what variant.json would say if it were written
-- now from the replicate rows (task grain, coder-eval's formulas), next to the same counts at
-- replicate grain. Used only to classify stored-vs-recomputed differences (R21 / R24); the
-- admissible per-regime numbers are in coder_eval_variant_rates (R20).
with folds as (
    select * from {{ ref('int_coder_eval__variant_task_folds') }}
),

task_grain as (
    select
        f.run_id,
        f.variant_id,
        count(*) as tasks_run,
        sum(case when f.folded_category = 'succeeded' then 1 else 0 end) as tasks_succeeded,
        sum(case when f.folded_category = 'failed' then 1 else 0 end) as tasks_failed,
        sum(case when f.folded_category = 'error' then 1 else 0 end) as tasks_error,
        sum(case when f.folded_category = 'ungraded' then 1 else 0 end) as tasks_not_graded,
        sum(case when f.folded_score is not null then 1 else 0 end) as tasks_measured,
        sum(case when f.folded_status = 'TOKEN_BUDGET_EXCEEDED' then 1 else 0 end) as tasks_token_budget_exceeded,
        sum(case when f.folded_status = 'COST_BUDGET_EXCEEDED' then 1 else 0 end) as tasks_cost_budget_exceeded,
        avg(case when f.folded_category <> 'ungraded' then f.folded_score end) as average_score,
        sum(f.n_replicates) as n_replicates,
        sum(f.n_graded) as n_replicates_graded,
        sum(f.n_measured) as n_replicates_measured,
        sum(f.n_succeeded) as n_replicates_succeeded,
        sum(f.n_failed) as n_replicates_failed,
        sum(f.n_error) as n_replicates_error,
        sum(f.n_ungraded) as n_replicates_ungraded,
        sum(f.graded_score_sum) as replicate_score_sum
    from folds as f
    group by f.run_id, f.variant_id
),

regimes as (
    select
        r.run_id,
        r.variant_id,
        count(distinct coalesce(r.system_prompt_regime, '(none)')) as n_regimes
    from {{ ref('int_coder_eval__replicates') }} as r
    group by r.run_id, r.variant_id
)

select
    t.run_id,
    t.variant_id,
    t.tasks_run,
    t.tasks_succeeded,
    t.tasks_failed,
    t.tasks_error,
    t.tasks_not_graded,
    t.tasks_measured,
    t.tasks_run - t.tasks_not_graded as tasks_graded,
    t.tasks_token_budget_exceeded,
    t.tasks_cost_budget_exceeded,
    -- coder-eval's VariantAggregate.pass_rate, exactly (nothing_was_measured guard on TASK counts)
    case
        when t.tasks_not_graded > 0 and t.tasks_measured = 0 then null
        when t.tasks_run - t.tasks_not_graded = 0 then null
        else cast(t.tasks_succeeded as double) / (t.tasks_run - t.tasks_not_graded)
    end as task_pass_rate_library,
    t.average_score as task_average_score_library,
    t.n_replicates,
    t.n_replicates_graded,
    t.n_replicates_measured,
    t.n_replicates_succeeded,
    t.n_replicates_failed,
    t.n_replicates_error,
    t.n_replicates_ungraded,
    -- replicate grain, run.json's formula (nothing_was_measured guard on REPLICATE counts)
    case
        when t.n_replicates_ungraded > 0 and t.n_replicates_measured = 0 then null
        when t.n_replicates_graded = 0 then null
        else cast(t.n_replicates_succeeded as double) / t.n_replicates_graded
    end as replicate_pass_rate,
    case
        when t.n_replicates_ungraded > 0 and t.n_replicates_measured = 0 then null
        when t.n_replicates_graded = 0 then null
        else t.replicate_score_sum / t.n_replicates_graded
    end as replicate_average_score,
    g.n_regimes
from task_grain as t
inner join regimes as g
    on t.run_id = g.run_id and t.variant_id = g.variant_id
