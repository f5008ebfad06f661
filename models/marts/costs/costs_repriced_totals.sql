{#-
  Cost totals per (source_family, model): logged, repriced and best-known sums. A total that includes an
  unpriced record is flagged cost_complete = false and is a floor, not a bill (R13); the best-known total
  says the same in cost_best_complete and how much of it rests on each basis. Carries the stamp range and
  the range of price-table dates it was computed from (R12), and how many of its records have no valid stamp
  (n_unstamped: each one a data-quality finding); when all of them lack one, the range is NULL.
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
    sum(c.cost_usd_best) as cost_usd_best_total,
    bool_and(c.cost_best_complete) as cost_best_complete,
    count(*) filter (where c.cost_basis = 'repriced') as n_basis_repriced,
    count(*) filter (where c.cost_basis = 'corrected') as n_basis_corrected,
    count(*) filter (where c.cost_basis = 'logged_current') as n_basis_logged_current,
    count(*) filter (where c.cost_basis = 'actual') as n_basis_actual,
    count(*) filter (where c.cost_basis = 'estimate') as n_basis_estimate,
    count(*) filter (where c.cost_basis = 'unpriced') as n_basis_unpriced,
    count(*) filter (where c.cost_basis = 'no_model_call') as n_basis_no_model_call,
    min(c.rate_row_date) as rate_row_first_date,
    max(c.rate_row_date) as rate_row_last_date,
    min(c.price_table_date) as price_table_first_date,
    max(c.price_table_date) as price_table_last_date,
    count(*) filter (where c.stamp is null) as n_unstamped,
    min(c.stamp) as first_stamp,
    max(c.stamp) as last_stamp
from {{ ref('fct_costs_repriced') }} as c
group by c.source_family, c.model
