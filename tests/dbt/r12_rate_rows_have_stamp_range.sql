-- R12: every rate or score row (and every cost total) carries the stamp range it covers.
{%- set marts = ['matrix_pass_rates', 'layered_router_accuracy', 'layered_failure_attribution',
                 'layered_layer_costs', 'costs_repriced_totals', 'cost_quality_frontier'] %}
{%- for m in marts %}
select
    '{{ m }}' as mart,
    r.first_stamp,
    r.last_stamp
from {{ ref(m) }} as r
where
    (r.first_stamp is null or r.last_stamp is null or r.first_stamp > r.last_stamp)
    {%- if m == 'costs_repriced_totals' %}
    -- a cost total keeps every record, stamped or not: one whose records all lack a valid stamp (each one a
    -- data-quality finding) covers no instant, and its range is NULL; with any stamped record it must have one
    and r.n_unstamped < r.n_records
    {%- endif %}
{%- if not loop.last %}
union all
{%- endif %}
{%- endfor %}
