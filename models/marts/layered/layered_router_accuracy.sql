{#-
  Router accuracy per router model (l1), from the standalone `l1` measurement ONLY and only rows where both
  route_expected and route_actual are present (R10). `total` rows also carry route fields but are never
  pooled in. Wilson interval on the graded rows.
-#}
with graded as (
    select * from {{ ref('fct_layered_measurements') }}
    where measurement = 'l1' and route_graded
),

ungraded as (
    select
        m.l1,
        count(*) as n_l1_ungraded
    from {{ ref('fct_layered_measurements') }} as m
    where m.measurement = 'l1' and not m.route_graded
    group by m.l1
),

per_router as (
    select
        g.l1,
        count(*) as n_routed,
        count(*) filter (where g.route_correct) as n_correct,
        min(g.stamp) as first_stamp,
        max(g.stamp) as last_stamp
    from graded as g
    group by g.l1
)

select
    p.l1,
    cast(p.n_routed as bigint) as n_routed,
    cast(p.n_correct as bigint) as n_correct,
    cast(p.n_correct as double) / nullif(p.n_routed, 0) as accuracy,
    {{ wilson_low('p.n_correct', 'p.n_routed') }} as ci_low,
    {{ wilson_high('p.n_correct', 'p.n_routed') }} as ci_high,
    cast(coalesce(u.n_l1_ungraded, 0) as bigint) as n_l1_ungraded,
    p.first_stamp,
    p.last_stamp
from per_router as p
left join ungraded as u
    on p.l1 = u.l1
