{#-
  Cost and latency per (pipeline, measurement mode, layer, model; the pipeline joined the grain 2026-12 so
  that the two pipelines' `total` rows are never pooled): logged costs as the harness wrote them, and for the
  standalone modes (which carry token counts) the cost repriced against the dated rate card
  (fct_costs_repriced), with cost_complete and the price-table date range (R12, R13).
  R25: a scenario (task_id) is measured in several reps (and pipelines), so the mean logged cost and
  mean latency carry cluster-robust standard errors with the SCENARIO as the cluster (a row without a
  task_id is its own cluster) and t(C-1) 95% intervals, unclipped (unbounded quantities).
-#}
{%- set grain = ['pipeline', 'measurement', 'layer', 'model'] %}

with layer_rows as (select * from {{ ref('int_layered__layer_costs') }}),

repriced as (
    select * from {{ ref('fct_costs_repriced') }}
    where source_family = 'layered'
),

joined as (
    select
        lr.*,
        r.record_key is not null as has_token_counts,
        r.cost_usd_repriced,
        r.cost_usd_best,
        r.cost_best_complete,
        r.is_priced,
        r.price_table_date
    from layer_rows as lr
    left join repriced as r
        on lr.measurement_key = r.record_key and lr.layer <> 'total'
),

-- one row per (group, scenario): the clusters of the clustered SEs
scenario_clusters as (
    select
        {{ qualified('j', grain) }},
        coalesce(j.task_id, j.measurement_key) as cluster_key,
        sum(j.cost_usd_logged) as cost_sum,
        count(j.cost_usd_logged) as cost_n,
        sum(j.latency_s) as latency_sum,
        count(j.latency_s) as latency_n
    from joined as j
    group by {{ qualified('j', grain) }}, coalesce(j.task_id, j.measurement_key)
),

clustered as (
    select
        {{ qualified('c', grain) }},
        count(*) filter (where c.cost_n > 0) as n_cost_usd_logged_clusters,
        {{ cluster_se('c.cost_sum', 'c.cost_n') }} as cost_usd_logged_se,
        count(*) filter (where c.latency_n > 0) as n_latency_s_clusters,
        {{ cluster_se('c.latency_sum', 'c.latency_n') }} as latency_s_se
    from scenario_clusters as c
    group by {{ qualified('c', grain) }}
),

grouped as (
    select
        {{ qualified('j', grain) }},
        count(*) as n_rows,
        count(j.cost_usd_logged) as n_cost_logged,
        sum(j.cost_usd_logged) as cost_usd_logged_total,
        avg(j.cost_usd_logged) as cost_usd_logged_mean,
        count(j.latency_s) as n_latency,
        avg(j.latency_s) as latency_s_mean,
        count(*) filter (where j.has_token_counts) as n_token_counted,
        sum(j.cost_usd_repriced) as cost_usd_repriced_total,
        sum(j.cost_usd_best) as cost_usd_best_total,
        coalesce(bool_and(j.cost_best_complete), false) and count(*) filter (where j.has_token_counts) = count(*)
            as cost_best_complete,
        case
            when count(*) filter (where j.has_token_counts) = count(*) then bool_and(j.is_priced)
            else false
        end as cost_complete,
        min(j.price_table_date) as price_table_first_date,
        max(j.price_table_date) as price_table_last_date,
        min(j.stamp) as first_stamp,
        max(j.stamp) as last_stamp
    from joined as j
    group by {{ qualified('j', grain) }}
),

-- the logged spellings (routes) pooled under one normalised model id
distinct_spellings as (
    select distinct
        {{ qualified('j', grain) }},
        j.model_raw
    from joined as j
),

spellings as (
    select
        {{ qualified('d', grain) }},
        {{ ordered_string_agg('d.model_raw', ', ', 'd.model_raw') }} as model_raw_spellings
    from distinct_spellings as d
    group by {{ qualified('d', grain) }}
)

select
    {{ qualified('g', grain) }},
    g.n_rows,
    g.n_cost_logged,
    g.cost_usd_logged_total,
    g.cost_usd_logged_mean,
    {{ mean_interval_columns('g.cost_usd_logged_mean', 'k.cost_usd_logged_se', 'cost_usd_logged',
                             'k.n_cost_usd_logged_clusters', 'g.n_cost_logged', lower=none, upper=none) }},
    coalesce(k.n_cost_usd_logged_clusters, 0) as n_cost_usd_logged_clusters,
    g.n_latency,
    g.latency_s_mean,
    {{ mean_interval_columns('g.latency_s_mean', 'k.latency_s_se', 'latency_s', 'k.n_latency_s_clusters', 'g.n_latency',
                             lower=none, upper=none) }},
    coalesce(k.n_latency_s_clusters, 0) as n_latency_s_clusters,
    g.n_token_counted,
    g.cost_usd_repriced_total,
    g.cost_complete,
    g.cost_usd_best_total,
    g.cost_best_complete,
    sp.model_raw_spellings,
    g.price_table_first_date,
    g.price_table_last_date,
    g.first_stamp,
    g.last_stamp
from grouped as g
left join clustered as k
    on
        {{ same_keys('g', 'k', [], null_safe=grain) }}
left join spellings as sp
    on
        {{ same_keys('g', 'sp', [], null_safe=grain) }}
