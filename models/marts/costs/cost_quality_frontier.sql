{#-
  Cost and quality per arm of every comparable stratum (int_costs__quality_units: brownfield kind x
  configuration, coder-eval run x variant, matrix turn type / evidence class x cell), on one row:
  - quality: the success rate over the units with an outcome, clustered Wilson interval (t(C-1));
  - cost: the mean best-known cost per unit with its clustered t(C-1) interval (lower bound 0), over
    the units whose cost is known;
  - cost per success: sum of cost / number of successes over the units with both known, a ratio of
    cluster totals with its Fieller interval (ratio_interval_columns);
  - the Pareto frontier: an arm is dominated only when another arm of the same stratum is better on
    BOTH axes beyond the intervals (its cost_usd_mean_ci_high < this arm's ci_low and its
    success_rate_ci_low > this arm's ci_high). Only arms whose every unit has a known, non-estimated
    cost take part (is_dominated NULL otherwise). is_dominated_point is the point-estimate dominance a
    plot without intervals would show, for contrast.
-#}
{#- an arm of one comparable stratum: the grain of the frontier #}
{%- set arm_key = ['source_family', 'stratum', 'arm'] %}

with units as (select * from {{ ref('int_costs__quality_units') }}),

-- one row per (arm, cluster): the cluster totals of the clustered SEs and of the ratio's variances
clusters as (
    select
        {{ qualified('u', arm_key) }},
        u.cluster_key,
        count(*) as n_units,
        count(u.is_success) as n_graded,
        count(case when u.is_success then 1 end) as n_successes,
        count(case when u.cost_known then 1 end) as n_cost_known,
        sum(case when u.cost_known then u.cost_usd_best end) as cost_sum,
        -- the ratio uses the units with both a known cost and an outcome
        sum(case when u.cost_known and u.is_success is not null then u.cost_usd_best end) as ratio_cost,
        count(case when u.cost_known and u.is_success then 1 end) as ratio_successes
    from units as u
    group by {{ qualified('u', arm_key) }}, u.cluster_key
),

arms as (
    select
        {{ qualified('c', arm_key) }},
        cast(sum(c.n_units) as bigint) as n_units,
        count(*) as n_clusters,
        cast(sum(c.n_graded) as bigint) as n_graded,
        cast(sum(c.n_successes) as bigint) as n_successes,
        cast(sum(c.n_successes) as double) / nullif(sum(c.n_graded), 0) as success_rate,
        {{ cluster_se('c.n_successes', 'c.n_graded') }} as success_rate_se,
        count(case when c.n_graded > 0 then 1 end) as n_success_clusters,
        cast(sum(c.n_cost_known) as bigint) as n_cost_known,
        sum(c.cost_sum) as cost_usd_total,
        sum(c.cost_sum) / nullif(sum(c.n_cost_known), 0) as cost_usd_mean,
        {{ cluster_se('c.cost_sum', 'c.n_cost_known') }} as cost_usd_mean_se,
        count(case when c.n_cost_known > 0 then 1 end) as n_cost_clusters,
        sum(c.ratio_cost) as ratio_cost,
        cast(sum(c.ratio_successes) as bigint) as ratio_successes,
        count(case when c.ratio_cost is not null then 1 end) as n_ratio_clusters,
        sum(c.ratio_cost * c.ratio_cost) as ratio_cost_sq,
        sum(cast(c.ratio_successes as double) * c.ratio_successes) as ratio_successes_sq,
        sum(c.ratio_cost * c.ratio_successes) as ratio_cross
    from clusters as c
    group by {{ qualified('c', arm_key) }}
),

arm_facts as (
    select
        {{ qualified('u', arm_key) }},
        min(u.model) as model,
        cast(sum(u.n_estimates) as bigint) as n_cost_estimates,
        min(u.rate_row_first_date) as rate_row_first_date,
        max(u.rate_row_last_date) as rate_row_last_date,
        min(u.stamp) as first_stamp,
        max(u.stamp) as last_stamp
    from units as u
    group by {{ qualified('u', arm_key) }}
),

ratio_vars as (
    select
        a.*,
        {{ cluster_total_cov('a.ratio_cost_sq', 'a.ratio_cost', 'a.ratio_cost', 'a.n_ratio_clusters') }} as v_yy,
        {{ cluster_total_cov('a.ratio_successes_sq', 'a.ratio_successes', 'a.ratio_successes', 'a.n_ratio_clusters') }}
            as v_xx,
        {{ cluster_total_cov('a.ratio_cross', 'a.ratio_cost', 'a.ratio_successes', 'a.n_ratio_clusters') }} as v_xy,
        {{ t_quantile('a.n_ratio_clusters - 1') }} as ratio_t
    from arms as a
),

measured as (
    select
        {{ qualified('r', arm_key) }},
        f.model,
        r.n_units,
        r.n_clusters,
        r.n_graded,
        r.n_successes,
        r.success_rate,
        {{ clustered_rate_interval_columns('r.success_rate', 'r.n_successes', 'r.n_graded', 'r.success_rate_se',
                                           'r.n_success_clusters', 'success_rate') }},
        cast({{ ci_null_reason('r.success_rate', 'r.n_success_clusters') }} as {{ dbt.type_string() }}) as success_rate_ci_reason,
        r.n_success_clusters as n_success_rate_clusters,
        r.n_cost_known,
        r.n_cost_known = r.n_units and f.n_cost_estimates = 0 as cost_complete,
        f.n_cost_estimates,
        r.cost_usd_total,
        r.cost_usd_mean,
        {{ mean_interval_columns('r.cost_usd_mean', 'r.cost_usd_mean_se', 'cost_usd_mean', 'r.n_cost_clusters',
                                 'r.n_cost_known', lower=0, upper=none) }},
        cast({{ ci_null_reason('r.cost_usd_mean', 'r.n_cost_clusters') }} as {{ dbt.type_string() }}) as cost_usd_mean_ci_reason,
        r.n_cost_clusters as n_cost_usd_mean_clusters,
        {{ ratio_interval_columns('r.ratio_cost', 'r.ratio_successes', 'r.v_yy', 'r.v_xx', 'r.v_xy',
                                  'r.n_ratio_clusters', 'cost_per_success', crit='r.ratio_t') }},
        r.ratio_successes as n_cost_per_success_successes,
        r.n_ratio_clusters as n_cost_per_success_clusters,
        f.rate_row_first_date,
        f.rate_row_last_date,
        f.first_stamp,
        f.last_stamp
    from ratio_vars as r
    inner join arm_facts as f
        on
            {{ same_keys('r', 'f', arm_key) }}
),

-- every (arm, rival) of one stratum, both with a complete cost: is the rival better on both axes?
rivals as (
    select
        {{ qualified('m', arm_key) }},
        o.arm as rival,
        coalesce(
            o.cost_usd_mean_ci_high < m.cost_usd_mean_ci_low and o.success_rate_ci_low > m.success_rate_ci_high, false
        ) as rival_dominates,
        coalesce(
            o.cost_usd_mean <= m.cost_usd_mean
            and o.success_rate >= m.success_rate
            and (o.cost_usd_mean < m.cost_usd_mean or o.success_rate > m.success_rate),
            false
        ) as rival_dominates_point
    from measured as m
    inner join measured as o
        on
            {{ same_keys('m', 'o', ['source_family', 'stratum']) }}
            and m.arm <> o.arm
            and o.cost_complete
    where m.cost_complete
),

dominance as (
    select
        {{ qualified('r', arm_key) }},
        count(case when r.rival_dominates then 1 end) as n_dominating,
        {{ ordered_string_agg('case when r.rival_dominates then r.rival end', ', ', 'r.rival') }} as dominated_by,
        count(case when r.rival_dominates_point then 1 end) as n_dominating_point
    from rivals as r
    group by {{ qualified('r', arm_key) }}
)

select
    m.*,
    case when m.cost_complete and m.success_rate_ci_low is not null then coalesce(d.n_dominating, 0) > 0 end
        as is_dominated,
    d.dominated_by,
    case when m.cost_complete and m.success_rate is not null then coalesce(d.n_dominating_point, 0) > 0 end
        as is_dominated_point
from measured as m
left join dominance as d
    on
        {{ same_keys('m', 'd', arm_key) }}
