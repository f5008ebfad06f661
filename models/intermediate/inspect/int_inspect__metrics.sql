{#-
  One row per (log, score, reducer, metric) inspect_ai stored: its stored value beside evalhouse's recomputation
  from the log's reduced samples (accuracy, mean, stderr, std, var; NULL for other metrics) and the mean with errored,
  unscored samples counted 0. Read by inspect_metrics and by the R28 finding.
-#}
with stored as (
    select * from {{ ref('stg_inspect__metrics') }}
),

recomputed as (
    select * from {{ ref('int_inspect__metrics_recomputed') }}
)

select
    s.source_file,
    s.score_position,
    s.score_name,
    s.scorer,
    s.reducer,
    s.metric,
    s.value_stored,
    case
        when s.metric in ('accuracy', 'mean') then r.mean_recomputed
        -- inspect_ai's stderr / std / var are 0 below two observations (clusters, for a clustered stderr)
        when s.metric = 'stderr' then coalesce(r.stderr_recomputed, case when r.n_reduced > 0 then 0.0 end)
        when s.metric = 'std' then coalesce(r.std_recomputed, case when r.n_reduced > 0 then 0.0 end)
        when s.metric = 'var' then coalesce(r.var_recomputed, case when r.n_reduced > 0 then 0.0 end)
    end as value_recomputed,
    s.metric in ('accuracy', 'mean', 'stderr', 'std', 'var') as is_recomputed,
    s.scored_samples_stored,
    s.unscored_samples_stored,
    r.n_reduced as n_samples_scored,
    r.cluster_key,
    r.n_clusters_scored,
    case when s.metric in ('accuracy', 'mean') then r.mean_errors_as_incorrect end as value_errors_as_incorrect,
    case when s.metric in ('accuracy', 'mean') then r.mean_ci_low end as value_ci_low,
    case when s.metric in ('accuracy', 'mean') then r.mean_ci_high end as value_ci_high,
    case when s.metric in ('accuracy', 'mean') then r.errors_as_incorrect_ci_low end as value_errors_as_incorrect_ci_low,
    case when s.metric in ('accuracy', 'mean') then r.errors_as_incorrect_ci_high end as value_errors_as_incorrect_ci_high,
    s.load_id
from stored as s
left join recomputed as r
    on
        {{ same_keys('s', 'r', ['source_file', 'score_name', 'scorer'], null_safe=['reducer']) }}
