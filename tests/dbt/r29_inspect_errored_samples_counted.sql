{#-
  R29 (what evalhouse computes): errored samples never silently leave a denominator. Every inspect_metrics
  accuracy / mean row (a group's, for a grouped metric) that inspect_ai computed over scored samples carries the
  samples the log attempted and the rate with the unscored, errored ones counted as incorrect; attempted >=
  scored, and that rate never exceeds what the scored samples alone give (for values in [0, 1]). The rate counts
  every epoch without a score 0 too; it is NULL only where the reducer cannot be taken again that way, and then
  there are such epochs and its reason says so.
-#}
select
    m.source_file,
    m.score_name,
    m.reducer,
    m.metric,
    m.n_samples_scored,
    m.n_samples_attempted,
    m.n_epochs_unscored,
    m.value_errors_as_incorrect,
    m.value_errors_as_incorrect_ci_reason
from {{ ref('inspect_metrics') }} as m
where
    m.metric_base in ('accuracy', 'mean')
    and m.n_samples_scored > 0
    and (
        (
            m.value_errors_as_incorrect is null
            and not coalesce(
                m.n_epochs_unscored > 0
                and m.value_errors_as_incorrect_ci_reason like 'epochs without a score under a reducer%',
                false
            )
        )
        or m.n_samples_attempted is null
        or m.n_samples_attempted < m.n_samples_scored
        or (m.value_recomputed between 0 and 1 and m.value_errors_as_incorrect > m.value_recomputed + 1e-12)
    )
