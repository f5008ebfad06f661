{#-
  One row per (log, scorer, reducer): inspect_ai's accuracy / mean and stderr recomputed from the reduced
  per-sample values (int_inspect__sample_values), as inspect_ai computes them: the mean of value_to_float over the
  samples that have a reduced value, and stderr = sample standard deviation (n - 1) / sqrt(n). Beside them, the
  same mean over every sample the log attempted (an unscored, errored sample counts 0, R29). Each mean carries
  its 95% interval by the statistics conventions, each sample one cluster (its epochs are replicates, already
  reduced to one value), so the SE of the scored mean is inspect's stderr.
-#}
with sample_values as (
    select * from {{ ref('int_inspect__sample_values') }}
),

summed as (
    select
        v.source_file,
        v.scorer,
        v.reducer,
        count(case when not v.is_unscored then 1 end) as n_reduced,
        avg(case when not v.is_unscored then v.value end) as mean_recomputed,
        stddev_samp(case when not v.is_unscored then v.value end)
        / sqrt(count(case when not v.is_unscored then 1 end)) as stderr_recomputed,
        count(*) as n_samples_attempted,
        avg(v.value) as mean_errors_as_incorrect,
        stddev_samp(v.value) / sqrt(count(*)) as errors_as_incorrect_se
    from sample_values as v
    group by v.source_file, v.scorer, v.reducer
)

select
    s.source_file,
    s.scorer,
    s.reducer,
    s.n_reduced,
    s.n_samples_attempted,
    s.mean_recomputed,
    s.stderr_recomputed,
    {{ mean_interval_columns('s.mean_recomputed', 's.stderr_recomputed', 'mean', 's.n_reduced', 's.n_reduced') }},
    s.mean_errors_as_incorrect,
    {{ mean_interval_columns('s.mean_errors_as_incorrect', 's.errors_as_incorrect_se', 'errors_as_incorrect', 's.n_samples_attempted', 's.n_samples_attempted') }}
from summed as s
