{#-
  One row per (log, scorer, reducer): inspect_ai's accuracy / mean and stderr recomputed from the reduced
  per-sample values (reductions.json), as inspect_ai computes them: the mean of value_to_float over the samples
  that have a reduced value, and stderr = sample standard deviation (n - 1) / sqrt(n). Beside them, the same
  mean with every sample the log attempted in the denominator: a sample with no reduced value (it errored and
  was not scored) counts as 0 (incorrect).
-#}
with reduced as (
    select * from {{ ref('stg_inspect__reductions') }}
),

logs as (
    select * from {{ ref('int_inspect__logs') }}
)

select
    r.source_file,
    r.scorer,
    r.reducer,
    count(r.value_float) as n_reduced,
    max(l.n_samples) as n_samples_attempted,
    avg(r.value_float) as mean_recomputed,
    stddev_samp(r.value_float) / sqrt(count(r.value_float)) as stderr_recomputed,
    sum(r.value_float) / nullif(max(l.n_samples), 0) as mean_errors_as_incorrect
from reduced as r
inner join logs as l on r.source_file = l.source_file
group by r.source_file, r.scorer, r.reducer
