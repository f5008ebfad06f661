{#-
  Every failed end-to-end (`total`) row blamed on exactly one of router / planner / coder / unattributed
  (R11), counted per router model (l1). Every blame appears for every l1 with failures (0 when none), so the
  counts add up to the failures.
-#}
with failures as (
    select * from {{ ref('fct_layered_measurements') }}
    where is_failed_total
),

blames as (
    select b.blame
    from (values ('router'), ('planner'), ('coder'), ('unattributed')) as b (blame)
),

routers as (
    select
        f.l1,
        count(*) as n_failed_total,
        min(f.stamp) as first_stamp,
        max(f.stamp) as last_stamp
    from failures as f
    group by f.l1
),

counts as (
    select
        f.l1,
        f.blame,
        count(*) as n_failures
    from failures as f
    group by f.l1, f.blame
)

select
    r.l1,
    b.blame,
    cast(coalesce(c.n_failures, 0) as bigint) as n_failures,
    cast(r.n_failed_total as bigint) as n_failed_total,
    r.first_stamp,
    r.last_stamp
from routers as r
cross join blames as b
left join counts as c
    on r.l1 = c.l1 and b.blame = c.blame
