{#-
  One row per (run, variant, system-prompt regime, task): worst-of-replicates folding of replicate rows into one row per task, as coder-eval's
  orchestration/experiment.py::_fold_replicates does it:
    folded status  = the replicate status with the lowest worst_of_priority (error 0 < failed 1 <
                     succeeded 2 < ungraded 3), first replicate_index on ties;
    folded score   = mean over the non-ungraded replicates of score_for_average (a None score on a
                     graded row counts 0.0, R17); NULL only when every replicate is ungraded.
  variant_folded_status / _category: the variant-level (all regimes) worst replicate, on the one row
  that holds it (NULL on the others), for int_coder_eval__variant_task_folds.
-#}
{%- set fold = ['run_id', 'variant_id', 'system_prompt_regime', 'task_id'] %}

with replicates as (select * from {{ ref('int_coder_eval__replicates') }}),

ranked as (
    select
        r.*,
        row_number() over (
            partition by {{ qualified('r', fold) }}
            order by r.worst_of_priority, r.replicate_index
        ) as worst_rank,
        -- the worst replicate over ALL regimes of the variant: int_coder_eval__variant_task_folds rolls these up
        row_number() over (
            partition by r.run_id, r.variant_id, r.task_id
            order by r.worst_of_priority, r.replicate_index
        ) as variant_worst_rank
    from replicates as r
),

folded as (
    select
        {{ qualified('r', fold) }},
        count(*) as n_replicates,
        sum(case when r.is_graded then 1 else 0 end) as n_graded,
        sum(case when r.is_measured then 1 else 0 end) as n_measured,
        sum(case when r.status_category = 'succeeded' then 1 else 0 end) as n_succeeded,
        sum(case when r.status_category = 'failed' then 1 else 0 end) as n_failed,
        sum(case when r.status_category = 'error' then 1 else 0 end) as n_error,
        sum(case when r.status_category = 'ungraded' then 1 else 0 end) as n_ungraded,
        sum(case when r.is_graded then r.score_for_average end) as graded_score_sum,
        sum(case when r.is_graded and r.score_for_average not in (0, 1) then 1 else 0 end) as n_graded_nonbinary,
        max(case when r.worst_rank = 1 then r.final_status end) as folded_status,
        max(case when r.worst_rank = 1 then r.status_category end) as folded_category,
        max(case when r.variant_worst_rank = 1 then r.final_status end) as variant_folded_status,
        max(case when r.variant_worst_rank = 1 then r.status_category end) as variant_folded_category,
        min(r.started_at) as first_started_at,
        max(r.started_at) as last_started_at
    from ranked as r
    group by {{ qualified('r', fold) }}
)

select
    f.*,
    f.folded_category = 'succeeded' as all_replicates_passed,
    case when f.n_graded > 0 then f.graded_score_sum / f.n_graded end as folded_score
from folded as f
