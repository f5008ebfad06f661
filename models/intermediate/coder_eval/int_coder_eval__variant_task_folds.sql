{#-
  One row per (run, variant, task) over all regimes: the regime folds of int_coder_eval__regime_task_folds
  rolled up, which is worst-of-replicates folding over every replicate of the task, as coder-eval's
  orchestration/experiment.py::_fold_replicates does it for variant.json / experiment.json:
    folded status  = the replicate status with the lowest worst_of_priority (error 0 < failed 1 <
                     succeeded 2 < ungraded 3), first replicate_index on ties (carried by the regime fold
                     that holds that replicate);
    folded score   = mean over the non-ungraded replicates of score_for_average (a None score on a
                     graded row counts 0.0, R17); NULL only when every replicate is ungraded.
-#}
with regime_folds as (select * from {{ ref('int_coder_eval__regime_task_folds') }}),

folded as (
    select
        f.run_id,
        f.variant_id,
        f.task_id,
        cast(sum(f.n_replicates) as bigint) as n_replicates,
        {%- for c in ['n_graded', 'n_measured', 'n_succeeded', 'n_failed', 'n_error', 'n_ungraded', 'graded_score_sum'] %}
            sum(f.{{ c }}) as {{ c }},
        {%- endfor %}
        max(f.variant_folded_status) as folded_status,
        max(f.variant_folded_category) as folded_category,
        min(f.first_started_at) as first_started_at,
        max(f.last_started_at) as last_started_at
    from regime_folds as f
    group by f.run_id, f.variant_id, f.task_id
)

select
    f.*,
    f.folded_category = 'succeeded' as all_replicates_passed,
    case when f.n_graded > 0 then f.graded_score_sum / f.n_graded end as folded_score
from folded as f
