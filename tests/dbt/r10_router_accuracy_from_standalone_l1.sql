-- R10: router accuracy comes only from standalone l1 rows with both route fields present, per router model.
-- Recompute from fct_layered_measurements and compare with layered_router_accuracy.
with recomputed as (
    select
        m.l1,
        count(*) as n_routed,
        count(*) filter (where m.route_actual = m.route_expected) as n_correct
    from {{ ref('fct_layered_measurements') }} as m
    where m.measurement = 'l1' and m.route_expected is not null and m.route_actual is not null
    group by m.l1
)

select
    coalesce(r.l1, a.l1) as l1,
    r.n_routed as n_routed_recomputed,
    a.n_routed as n_routed_mart,
    r.n_correct as n_correct_recomputed,
    a.n_correct as n_correct_mart
from recomputed as r
full outer join {{ ref('layered_router_accuracy') }} as a
    on r.l1 = a.l1
where
    r.l1 is null
    or a.l1 is null
    or r.n_routed <> a.n_routed
    or r.n_correct <> a.n_correct
    or abs(a.accuracy - cast(r.n_correct as double) / r.n_routed) > 1e-12
