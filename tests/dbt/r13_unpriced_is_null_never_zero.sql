-- R13: a missing price is NULL, never 0: an unpriced row has no repriced cost, a priced row has one, and
-- cost_complete says which (a per-request static fallback is an estimate: priced, never complete). The
-- best-known cost is NULL exactly when its basis is unpriced.
select
    c.source_family,
    c.record_key,
    c.model,
    c.is_priced,
    c.cost_usd_repriced,
    c.cost_complete
from {{ ref('fct_costs_repriced') }} as c
where
    (not c.is_priced and c.cost_usd_repriced is not null)
    or (c.is_priced and c.cost_usd_repriced is null)
    or c.cost_complete <> (c.is_priced and not c.cost_is_estimate)
    or (c.unpriced_reason is not null) = c.is_priced
    or (c.cost_basis = 'unpriced') <> (c.cost_usd_best is null)
    or (c.cost_basis = 'unpriced' and c.rate_row_date is not null)
