{#- R15 (computed): the recomputed category counts partition tasks_run, and the budget counters are sub-counts of failed. -#}
select *
from {{ ref('coder_eval_run_summaries') }}
where
    tasks_succeeded_recomputed + tasks_failed_recomputed + tasks_error_recomputed + tasks_not_graded_recomputed
    is distinct from tasks_run_recomputed
    or tasks_token_budget_exceeded_recomputed + tasks_cost_budget_exceeded_recomputed > tasks_failed_recomputed
    or tasks_graded_recomputed is distinct from tasks_run_recomputed - tasks_not_graded_recomputed
