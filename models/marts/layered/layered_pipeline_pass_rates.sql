{#-
  Pass rates per (pipeline, measurement): the end-to-end rate (`total`) and each standalone layer's rate
  (`l1`, `l2plan`, `l2conv`, `l3`) side by side, never pooled (R10). A task is measured in several reps,
  so the task is the cluster: Wilson at the design-effect sample size with t(C-1). Rows whose outcome
  is missing are counted in n_outcome_missing and in neither side.
-#}
with rows_measured as (
    select
        m.*,
        coalesce(m.task_id, m.measurement_key) as cluster_key
    from {{ ref('fct_layered_measurements') }} as m
),

task_clusters as (
    select
        r.pipeline,
        r.measurement,
        r.cluster_key,
        count(r.passed) as cluster_n,
        count(*) filter (where r.passed) as cluster_passed
    from rows_measured as r
    group by r.pipeline, r.measurement, r.cluster_key
),

clustered as (
    select
        c.pipeline,
        c.measurement,
        count(*) filter (where c.cluster_n > 0) as n_clusters,
        {{ cluster_se('c.cluster_passed', 'c.cluster_n') }} as pass_rate_se
    from task_clusters as c
    group by c.pipeline, c.measurement
),

strata as (
    select
        r.pipeline,
        r.measurement,
        bool_and(r.is_standalone) as is_standalone,
        count(r.passed) as n_measured,
        count(*) filter (where r.passed) as n_passed,
        count(*) filter (where r.passed is null) as n_outcome_missing,
        min(r.stamp) as first_stamp,
        max(r.stamp) as last_stamp
    from rows_measured as r
    group by r.pipeline, r.measurement
)

select
    s.pipeline,
    s.measurement,
    s.is_standalone,
    cast(s.n_measured as bigint) as n_measured,
    cast(s.n_passed as bigint) as n_passed,
    cast(s.n_outcome_missing as bigint) as n_outcome_missing,
    cast(s.n_passed as double) / nullif(s.n_measured, 0) as pass_rate,
    {{ clustered_rate_interval_columns('cast(s.n_passed as double) / nullif(s.n_measured, 0)', 's.n_passed', 's.n_measured',
                                       'k.pass_rate_se', 'k.n_clusters', 'pass_rate') }},
    cast({{ ci_null_reason('cast(s.n_passed as double) / nullif(s.n_measured, 0)', 'k.n_clusters') }} as {{ dbt.type_string() }})
        as pass_rate_ci_reason,
    cast(coalesce(k.n_clusters, 0) as bigint) as n_clusters,
    s.first_stamp,
    s.last_stamp
from strata as s
left join clustered as k
    on s.pipeline is not distinct from k.pipeline and s.measurement is not distinct from k.measurement
