-- R11: per router model, the attribution counts add up to the failed total rows.
with failures as (
    select
        m.l1,
        count(*) as n_failed
    from {{ ref('fct_layered_measurements') }} as m
    where m.measurement = 'total' and m.passed = false
    group by m.l1
),

attributed as (
    select
        a.l1,
        sum(a.n_failures) as n_attributed,
        max(a.n_failed_total) as n_failed_total
    from {{ ref('layered_failure_attribution') }} as a
    group by a.l1
)

select
    coalesce(f.l1, a.l1) as l1,
    f.n_failed,
    a.n_attributed,
    a.n_failed_total
from failures as f
full outer join attributed as a
    on f.l1 = a.l1
where
    f.l1 is null
    or a.l1 is null
    or f.n_failed <> a.n_attributed
    or f.n_failed <> a.n_failed_total
