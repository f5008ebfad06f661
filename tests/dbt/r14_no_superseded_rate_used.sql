-- R14: repricing never uses a superseded (corrected) rate-card row.
select
    c.source_family,
    c.record_key,
    c.rate_id,
    r.superseded_by
from {{ ref('fct_costs_repriced') }} as c
inner join {{ ref('rate_card') }} as r
    on c.rate_id = r.rate_id
where r.superseded_by is not null
