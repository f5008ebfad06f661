select
    f.kind_category,
    count(*) as n_runs,
    avg(f.change) as change_mean,
    sum(f.change_assertions_total) as change_assertions_total
from {{ ref('fct_toy_runs') }} as f
group by f.kind_category
union all
select
    'none' as kind_category,
    0 as n_runs,
    null as change_mean,
    null as change_assertions_total
