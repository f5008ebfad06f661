{#-
  Cost totals per (source_family, model): logged and repriced sums. A total that includes an unpriced record
  is flagged cost_complete = false and is a floor, not a bill (R13). Carries the stamp range and the range of
  price-table dates it was computed from (R12).
-#}
select
    c.source_family,
    c.model,
    count(*) as n_records,
    count(*) filter (where c.is_priced) as n_priced,
    count(*) filter (where not c.is_priced) as n_unpriced,
    sum(c.cost_usd_logged) as cost_usd_logged_total,
    count(*) filter (where c.cost_usd_logged is null) as n_cost_logged_missing,
    sum(c.cost_usd_repriced) as cost_usd_repriced_total,
    bool_and(c.is_priced) as cost_complete,
    min(c.price_table_date) as price_table_first_date,
    max(c.price_table_date) as price_table_last_date,
    min(c.stamp) as first_stamp,
    max(c.stamp) as last_stamp
from {{ ref('fct_costs_repriced') }} as c
group by c.source_family, c.model
