{#-
  One row per (log, scorer, reducer): the 95% intervals of the two rates inspect_metrics states, by the
  statistics conventions, with each sample one cluster (its epochs are replicates, already reduced to one value):
  the mean over the scored samples (inspect's accuracy / mean; its SE is inspect's stderr) and the mean over
  every attempted sample with the unscored, errored ones counted 0.
-#}
with sample_values as (
    select * from {{ ref('int_inspect__sample_values') }}
),

summed as (
    select
        v.source_file,
        v.scorer,
        v.reducer,
        count(case when not v.is_unscored then 1 end) as n_scored,
        avg(case when not v.is_unscored then v.value end) as scored_mean,
        stddev_samp(case when not v.is_unscored then v.value end)
        / sqrt(count(case when not v.is_unscored then 1 end)) as scored_se,
        count(*) as n_attempted,
        avg(v.value) as attempted_mean,
        stddev_samp(v.value) / sqrt(count(*)) as attempted_se
    from sample_values as v
    group by v.source_file, v.scorer, v.reducer
)

select
    s.source_file,
    s.scorer,
    s.reducer,
    s.n_scored,
    s.n_attempted,
    s.scored_mean,
    {{ mean_interval_columns('s.scored_mean', 's.scored_se', 'scored_mean', 's.n_scored', 's.n_scored') }},
    s.attempted_mean,
    {{ mean_interval_columns('s.attempted_mean', 's.attempted_se', 'attempted_mean', 's.n_attempted', 's.n_attempted') }}
from summed as s
