-- R14: a token-repriced cost equals the raw token counts times the prices of the rate row used; a correction
-- equals the logged cost times the ratio of the correcting to the superseded row.
select
    c.source_family,
    c.record_key,
    c.cost_usd_repriced,
    c.repricing_method
from {{ ref('fct_costs_repriced') }} as c
left join {{ ref('rate_card') }} as r
    on c.rate_id = r.rate_id
left join {{ ref('rate_card') }} as s
    on c.superseded_rate_id = s.rate_id
where
    (
        c.repricing_method in ('tokens', 'per_request_static_fallback')
        and abs(
            c.cost_usd_repriced
            - (
                c.uncached_input_tokens * r.input_usd_per_mtok
                + c.cache_read_tokens * r.cache_read_usd_per_mtok
                + c.cache_write_tokens * r.cache_write_usd_per_mtok
                + c.output_tokens * r.output_usd_per_mtok
            ) / 1e6
        ) > 1e-12
    )
    or (
        c.repricing_method = 'superseded_rate_correction'
        and abs(c.cost_usd_repriced - c.cost_usd_logged * r.input_usd_per_mtok / s.input_usd_per_mtok) > 1e-12
    )
    or (c.repricing_method = 'per_request_actual' and c.cost_usd_repriced <> c.actual_cost_usd)
    or (c.repricing_method is not null and c.cost_usd_repriced is null)
