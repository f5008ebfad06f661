{#-
  Cost and latency per (measurement mode, layer, model): logged costs as the harness wrote them, and for the
  standalone modes (which carry token counts) the cost repriced against the dated rate card
  (fct_costs_repriced), with cost_complete and the price-table date range (R12, R13).
-#}
with layer_rows as (
    select * from {{ ref('int_layered__layer_costs') }}
),

repriced as (
    select * from {{ ref('fct_costs_repriced') }}
    where source_family = 'layered'
),

joined as (
    select
        lr.*,
        r.record_key is not null as has_token_counts,
        r.cost_usd_repriced,
        r.is_priced,
        r.price_table_date
    from layer_rows as lr
    left join repriced as r
        on lr.measurement_key = r.record_key and lr.layer <> 'total'
)

select
    j.measurement,
    j.layer,
    j.model,
    count(*) as n_rows,
    count(j.cost_usd_logged) as n_cost_logged,
    sum(j.cost_usd_logged) as cost_usd_logged_total,
    avg(j.cost_usd_logged) as cost_usd_logged_mean,
    count(j.latency_s) as n_latency,
    avg(j.latency_s) as latency_s_mean,
    count(*) filter (where j.has_token_counts) as n_token_counted,
    sum(j.cost_usd_repriced) as cost_usd_repriced_total,
    case
        when count(*) filter (where j.has_token_counts) = count(*) then bool_and(j.is_priced)
        else false
    end as cost_complete,
    min(j.price_table_date) as price_table_first_date,
    max(j.price_table_date) as price_table_last_date,
    min(j.stamp) as first_stamp,
    max(j.stamp) as last_stamp
from joined as j
group by j.measurement, j.layer, j.model
