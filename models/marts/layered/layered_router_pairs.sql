{#-
  Router vs router (l1 models), paired on the tasks both routed in the standalone `l1` measurement
  (R10): per (router, task) the share of graded routes that were correct; d = l1_b - l1_a per task
  (l1_a sorts first); the mean of d with its SE over tasks (one pair per task), the t(C-1) interval,
  MDD, the paired t-test p-value and Holm / BH within the family of all router pairs.
-#}
with graded as (
    select * from {{ ref('fct_layered_measurements') }}
    where measurement = 'l1' and route_graded and task_id is not null
),

arms as (
    select
        g.l1,
        g.task_id,
        count(*) as n_routed,
        avg(case when g.route_correct then cast(1 as double) else cast(0 as double) end) as accuracy,
        min(g.stamp) as first_stamp,
        max(g.stamp) as last_stamp
    from graded as g
    group by g.l1, g.task_id
),

pairs as (
    select
        a.l1 as l1_a,
        b.l1 as l1_b,
        a.task_id,
        a.accuracy as accuracy_a,
        b.accuracy as accuracy_b,
        b.accuracy - a.accuracy as accuracy_diff,
        a.n_routed as n_routed_a,
        b.n_routed as n_routed_b,
        {{ arm_stamps('a', 'b') }}
    from arms as a
    inner join arms as b
        on a.task_id = b.task_id and a.l1 < b.l1
),

compared as (
    select
        p.l1_a,
        p.l1_b,
        count(*) as n_pairs,
        sum(p.n_routed_a) as n_routed_a,
        sum(p.n_routed_b) as n_routed_b,
        avg(p.accuracy_a) as accuracy_mean_a,
        avg(p.accuracy_b) as accuracy_mean_b,
        avg(p.accuracy_diff) as accuracy_diff_mean,
        {{ cluster_se('p.accuracy_diff', '1') }} as accuracy_diff_se,
        {{ arm_corr('p.accuracy_a', 'p.accuracy_b') }} as arm_corr,
        {{ arm_stamp_ranges('p') }}
    from pairs as p
    group by p.l1_a, p.l1_b
),

tested as (
    select
        c.*,
        'layered_router_pairs' as family,
        {{ paired_t_p('c.accuracy_diff_mean', 'c.accuracy_diff_se', 'c.n_pairs - 1') }} as p_value
    from compared as c
),

ranked as (
    select
        t.*,
        count(*) over (partition by t.family) as family_size,
        {{ p_rank_columns('t.p_value', 't.family') }}
    from tested as t
)

select
    r.l1_a,
    r.l1_b,
    cast(r.n_pairs as bigint) as n_pairs,
    cast(r.n_routed_a as bigint) as n_routed_a,
    cast(r.n_routed_b as bigint) as n_routed_b,
    r.accuracy_mean_a,
    r.accuracy_mean_b,
    cast(r.family as {{ dbt.type_string() }}) as family,
    cast(r.family_size as bigint) as family_size,
    {{ paired_test_columns('r', 'accuracy_diff', 'r.n_pairs', 'r.n_pairs') }},
    {{ arm_stamp_columns('r') }}
from ranked as r
