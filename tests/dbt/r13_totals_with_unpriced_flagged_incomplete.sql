-- R13: any total that includes an unpriced record is flagged cost_complete = false (a floor, not a bill).
with recomputed as (
    select
        c.source_family,
        c.model,
        count(*) filter (where not c.is_priced) as n_unpriced
    from {{ ref('fct_costs_repriced') }} as c
    group by c.source_family, c.model
)

select
    t.source_family,
    t.model,
    t.cost_complete,
    r.n_unpriced
from {{ ref('costs_repriced_totals') }} as t
left join recomputed as r
    on t.source_family = r.source_family and t.model is not distinct from r.model
where
    r.n_unpriced is null
    or t.cost_complete <> (r.n_unpriced = 0)
    or t.n_unpriced <> r.n_unpriced
union all
select
    'layered' as source_family,
    l.model,
    l.cost_complete,
    l.n_rows - l.n_token_counted as n_unpriced
from {{ ref('layered_layer_costs') }} as l
where l.cost_complete and l.n_token_counted < l.n_rows
