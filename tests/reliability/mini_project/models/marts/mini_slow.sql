-- a few hundred ms of work, so that a kill lands inside dbt's model runs more often
select
    count(*) as n,
    sum(a.i * b.i % 7) as s
from range(0, 1500) as a (i)
cross join range(0, 1500) as b (i)
