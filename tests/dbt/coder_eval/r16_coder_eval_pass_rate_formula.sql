{#-
  R16 (computed): pass_rate_recomputed = succeeded / graded with graded = run - not_graded (errors in the
  denominator, ungraded in neither), NULL - never 0 - when nothing was graded or no row was measured; same for
  error_share_recomputed.
-#}
with expected as (
    select
        *,
        case
            when
                tasks_not_graded_recomputed > 0 and tasks_measured_recomputed = 0
                or tasks_run_recomputed - tasks_not_graded_recomputed = 0
                then null
            else cast(tasks_succeeded_recomputed as double) / (tasks_run_recomputed - tasks_not_graded_recomputed)
        end as pass_rate_expected,
        case
            when
                tasks_not_graded_recomputed > 0 and tasks_measured_recomputed = 0
                or tasks_run_recomputed - tasks_not_graded_recomputed = 0
                then null
            else cast(tasks_error_recomputed as double) / (tasks_run_recomputed - tasks_not_graded_recomputed)
        end as error_share_expected
    from {{ ref('coder_eval_run_summaries') }}
)

select *
from expected
where
    pass_rate_recomputed is distinct from pass_rate_expected
    or error_share_recomputed is distinct from error_share_expected
