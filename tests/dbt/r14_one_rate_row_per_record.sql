-- R14: exactly one rate-card row is picked per record: fct_costs_repriced has one row per (family, record).
select
    c.source_family,
    c.record_key,
    count(*) as n_rows
from {{ ref('fct_costs_repriced') }} as c
group by c.source_family, c.record_key
having count(*) > 1
