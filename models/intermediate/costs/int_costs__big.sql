{#-
  Cost interface rows for the brownfield suite (logs_big): one row per run. Big runs log no token counts,
  only `cost`, so every token bucket is NULL: they cannot be repriced from tokens. fct_costs_repriced
  exposes the exact correction for runs whose logged cost came from a superseded rate-card row (the
  deepseek-v4-pro 1.74 / 3.48 / 0.0145 row, in force until the 2026-07-19 re-verification): every price
  component of the correcting row is the same multiple (0.25) of the superseded one, so
  corrected = logged x 0.25 exactly. Every other big run stays unpriced (repriced NULL, reason
  `no_token_counts`), its logged cost visible beside it.
-#}
select
    'big' as source_family,
    r.run_key as record_key,
    r.model as model_raw,
    r.stamp as priced_at,
    cast(null as bigint) as uncached_input_tokens,
    cast(null as bigint) as cache_read_tokens,
    cast(null as bigint) as cache_write_tokens,
    cast(null as bigint) as output_tokens,
    r.cost_usd_logged,
    cast(null as double) as actual_cost_usd,
    r.source_file,
    r.source_line,
    r.load_id,
    r.stamp_is_naive,
    r.run_key as run_id,
    cast(null as {{ dbt.type_string() }}) as variant_id,
    r.scenario_id as task_id,
    'agent' as spend_kind,
    r.run_key as unit_key,
    false as is_no_model_call
from {{ ref('stg_big__runs') }} as r
where not coalesce(r.is_foreign_record, false)
