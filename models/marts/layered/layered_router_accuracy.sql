{#-
  Router accuracy per router model (l1), from the standalone `l1` measurement ONLY (R10). `total` rows
  also carry route fields but are never pooled in. A router is asked about the same task several times
  (reps, pipelines), so the task is the cluster: the interval is Wilson at the design-effect sample size
  with t(C-1) (contract: clustered binary rates).
  accuracy: rows with both route_expected and route_actual (today's figure, the contract's);
  accuracy_no_route_as_miss: "no route" (expected set, actual missing) counted as a miss.
-#}
with l1_rows as (
    select
        m.*,
        m.route_expected is not null and m.route_actual is null as is_no_route,
        coalesce(m.task_id, m.measurement_key) as cluster_key
    from {{ ref('fct_layered_measurements') }} as m
    where m.measurement = 'l1'
),

task_clusters as (
    select
        r.l1,
        r.cluster_key,
        count(*) filter (where r.route_graded) as n_routed,
        count(*) filter (where r.route_graded and r.route_correct) as n_correct,
        count(*) filter (where r.route_graded or r.is_no_route) as n_expected
    from l1_rows as r
    group by r.l1, r.cluster_key
),

clustered as (
    select
        c.l1,
        count(*) filter (where c.n_routed > 0) as n_clusters,
        {{ cluster_se('c.n_correct', 'c.n_routed') }} as accuracy_se,
        count(*) filter (where c.n_expected > 0) as n_expected_clusters,
        {{ cluster_se('c.n_correct', 'c.n_expected') }} as accuracy_no_route_as_miss_se
    from task_clusters as c
    group by c.l1
),

per_router as (
    select
        r.l1,
        count(*) filter (where r.route_graded) as n_routed,
        count(*) filter (where r.route_graded and r.route_correct) as n_correct,
        count(*) filter (where not r.route_graded) as n_l1_ungraded,
        count(*) filter (where r.is_no_route) as n_no_route,
        count(*) filter (where r.route_graded or r.is_no_route) as n_expected,
        min(r.stamp) filter (where r.route_graded) as first_stamp,
        max(r.stamp) filter (where r.route_graded) as last_stamp
    from l1_rows as r
    group by r.l1
),

rated as (
    select
        p.*,
        k.n_clusters,
        k.accuracy_se,
        k.n_expected_clusters,
        k.accuracy_no_route_as_miss_se,
        cast(p.n_correct as double) / nullif(p.n_routed, 0) as accuracy,
        cast(p.n_correct as double) / nullif(p.n_expected, 0) as accuracy_no_route_as_miss
    from per_router as p
    left join clustered as k
        on p.l1 is not distinct from k.l1
)

select
    r.l1,
    cast(r.n_routed as bigint) as n_routed,
    cast(r.n_correct as bigint) as n_correct,
    r.accuracy,
    {{ clustered_rate_bound('r.n_correct', 'r.n_routed', 'r.accuracy_se', 'r.n_clusters', 'low') }} as ci_low,
    {{ clustered_rate_bound('r.n_correct', 'r.n_routed', 'r.accuracy_se', 'r.n_clusters', 'high') }} as ci_high,
    r.accuracy_se,
    cast(coalesce(r.n_clusters, 0) as bigint) as n_clusters,
    cast({{ ci_null_reason('r.accuracy', 'r.n_clusters') }} as {{ dbt.type_string() }}) as ci_reason,
    cast(r.n_l1_ungraded as bigint) as n_l1_ungraded,
    cast(r.n_no_route as bigint) as n_no_route,
    cast(r.n_expected as bigint) as n_expected,
    r.accuracy_no_route_as_miss,
    {{ clustered_rate_interval_columns('r.accuracy_no_route_as_miss', 'r.n_correct', 'r.n_expected',
                                       'r.accuracy_no_route_as_miss_se', 'r.n_expected_clusters', 'accuracy_no_route_as_miss') }},
    cast(coalesce(r.n_expected_clusters, 0) as bigint) as n_accuracy_no_route_as_miss_clusters,
    cast({{ ci_null_reason('r.accuracy_no_route_as_miss', 'r.n_expected_clusters') }} as {{ dbt.type_string() }})
        as accuracy_no_route_as_miss_ci_reason,
    r.first_stamp,
    r.last_stamp
from rated as r
where r.n_routed > 0 or r.n_expected > 0
