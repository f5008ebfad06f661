{#- Families with an int_costs__<family> model (same columns). Adding a family is one line here. -#}
{%- set cost_families = [
    'matrix',
    'layered',
    'big',
    'coder_eval',
    'inspect',
] -%}
{#-
  One row per record of every family: the logged cost beside the cost repriced from raw token counts with
  the rate-card row in force at the record's timestamp (R14): never a superseded row, the UTC time-of-day
  window honoured. Unpriced is NULL, never 0 (R13). Every row carries a price_table_date (R12).
  fct_costs_repriced is this model under a contract.
-#}
with records as (
    {% for family in cost_families %}
        select * from {{ ref('int_costs__' ~ family) }}
        {% if not loop.last %}union all{% endif %}
    {% endfor %}
),

names as {{ model_name_map('records', 'model_raw', ref('model_aliases')) }},

rates as (select * from {{ ref('rate_card') }}),

rate_card_version as (
    select max(coalesce(r.verified_on, r.fetched_on)) as rate_card_date
    from rates as r
),

known_models as (
    select distinct r.model
    from rates as r
),

normalised as (
    select
        rec.*,
        n.model,
        {{ utc_time_of_day('rec.priced_at') }} as priced_time_utc
    from records as rec
    left join names as n
        on rec.model_raw = n.model_raw
),

matched as (
    select
        nm.*,
        r.rate_id,
        r.billing,
        r.price_table,
        coalesce(r.verified_on, r.fetched_on) as rate_date,
        r.input_usd_per_mtok,
        r.output_usd_per_mtok,
        r.cache_read_usd_per_mtok,
        r.cache_write_usd_per_mtok,
        s.rate_id as superseded_rate_id,
        c.rate_id as correcting_rate_id,
        coalesce(c.verified_on, c.fetched_on) as correcting_rate_date,
        c.price_table as correcting_price_table,
        case
            when
                s.input_usd_per_mtok > 0
                and abs(c.output_usd_per_mtok - s.output_usd_per_mtok * c.input_usd_per_mtok / s.input_usd_per_mtok)
                <= 1e-12 * c.output_usd_per_mtok
                and abs(
                    c.cache_read_usd_per_mtok - s.cache_read_usd_per_mtok * c.input_usd_per_mtok / s.input_usd_per_mtok
                ) <= 1e-12 * c.cache_read_usd_per_mtok
                and abs(
                    c.cache_write_usd_per_mtok
                    - s.cache_write_usd_per_mtok * c.input_usd_per_mtok / s.input_usd_per_mtok
                ) <= 1e-12 * c.cache_write_usd_per_mtok
                then c.input_usd_per_mtok / s.input_usd_per_mtok
        end as correction_factor,
        km.model is not null as model_on_rate_card
    from normalised as nm
    left join rates as r
        on
            nm.model = r.model
            and r.superseded_by is null
            and nm.priced_at >= r.effective_from
            and (r.effective_to is null or nm.priced_at < r.effective_to)
            and (r.tod_start_utc is null or (nm.priced_time_utc >= r.tod_start_utc and nm.priced_time_utc < r.tod_end_utc))
    left join rates as s
        on
            nm.model = s.model
            and s.superseded_by is not null
            and nm.priced_at >= s.effective_from
            and (s.effective_to is null or nm.priced_at < s.effective_to)
            and (s.tod_start_utc is null or (nm.priced_time_utc >= s.tod_start_utc and nm.priced_time_utc < s.tod_end_utc))
    left join rates as c
        on s.superseded_by = c.rate_id
    left join known_models as km
        on nm.model = km.model
),

-- a token count below 0 (as logged, or an input less the cache reads counted in it) is no count: it never prices a
-- record (unpriced_reason 'invalid_token_counts'), so no cost is below 0
checked as (
    select
        m.*,
        coalesce(
            m.uncached_input_tokens < 0 or m.cache_read_tokens < 0 or m.cache_write_tokens < 0 or m.output_tokens < 0,
            false
        ) as has_negative_tokens
    from matched as m
),

priced as (
    select
        m.*,
        m.uncached_input_tokens is null
        and m.cache_read_tokens is null
        and m.cache_write_tokens is null
        and m.output_tokens is null as has_no_tokens,
        -- a logged cost below 0 (or not finite) is no cost: it never prices a record (unpriced_reason
        -- 'invalid_logged_cost'); NaN sorts above every number on both engines, so the bound excludes it
        coalesce(m.cost_usd_logged >= 0 and m.cost_usd_logged < 1e300, false) as has_valid_logged_cost,
        case
            when not m.has_negative_tokens
                then (
                    m.uncached_input_tokens * m.input_usd_per_mtok
                    + m.cache_read_tokens * m.cache_read_usd_per_mtok
                    + m.cache_write_tokens * m.cache_write_usd_per_mtok
                    + m.output_tokens * m.output_usd_per_mtok
                ) / 1e6
        end as token_cost_usd
    from checked as m
),

methods as (
    select
        p.*,
        case
            -- a replicate that made no model call costs a known 0, whatever its (default) model
            when p.is_no_model_call then 'no_model_call'
            when p.rate_id is not null and p.billing = 'per_request' and p.actual_cost_usd is not null
                then 'per_request_actual'
            when p.rate_id is not null and p.billing = 'per_request' and p.token_cost_usd is not null
                then 'per_request_static_fallback'
            when p.rate_id is not null and p.token_cost_usd is not null then 'tokens'
            when
                p.has_no_tokens and p.has_valid_logged_cost and p.correction_factor is not null
                then 'superseded_rate_correction'
        end as repricing_method
    from priced as p
),

-- the best-known cost of every record and what it rests on (contract: cost_basis)
best as (
    select
        m.*,
        case
            when m.repricing_method = 'no_model_call' then 'no_model_call'
            when m.repricing_method = 'per_request_actual' then 'actual'
            when m.repricing_method = 'per_request_static_fallback' then 'estimate'
            when m.repricing_method = 'tokens' then 'repriced'
            when m.repricing_method = 'superseded_rate_correction' then 'corrected'
            -- no tokens, but the row in force when the harness logged the cost is a current (never
            -- superseded) row of the card: the harness's own dated table priced it
            when
                m.has_no_tokens and m.has_valid_logged_cost and m.rate_id is not null
                and m.superseded_rate_id is null and m.billing = 'per_token'
                then 'logged_current'
            else 'unpriced'
        end as cost_basis,
        case m.repricing_method
            when 'no_model_call' then 0.0
            when 'per_request_actual' then m.actual_cost_usd
            when 'per_request_static_fallback' then m.token_cost_usd
            when 'tokens' then m.token_cost_usd
            when 'superseded_rate_correction' then m.cost_usd_logged * m.correction_factor
        end as cost_usd_repriced,
        -- a logged 0.0 for a model on no rate card is the harness's "unknown", not a free call (R13)
        not m.model_on_rate_card and m.cost_usd_logged = 0 as is_logged_zero_unpriced
    from methods as m
)

select
    mt.source_family,
    mt.record_key,
    mt.model_raw,
    mt.model,
    mt.priced_at,
    mt.uncached_input_tokens,
    mt.cache_read_tokens,
    mt.cache_write_tokens,
    mt.output_tokens,
    case when not mt.is_logged_zero_unpriced then mt.cost_usd_logged end as cost_usd_logged,
    mt.cost_usd_logged as cost_usd_logged_raw,
    mt.actual_cost_usd,
    mt.cost_basis,
    -- the repriced cost where there is one, else the logged cost the current row priced
    coalesce(mt.cost_usd_repriced, case when mt.cost_basis = 'logged_current' then mt.cost_usd_logged end)
        as cost_usd_best,
    mt.cost_basis = 'estimate' as cost_is_estimate,
    case
        when mt.cost_basis = 'corrected' then mt.correcting_rate_date
        when mt.cost_basis not in ('unpriced', 'no_model_call') then mt.rate_date
    end as rate_row_date,
    case
        when mt.cost_basis = 'corrected' then mt.correcting_rate_id
        when mt.cost_basis not in ('unpriced', 'no_model_call') then mt.rate_id
    end as best_rate_id,
    mt.cost_usd_repriced,
    mt.repricing_method is not null as is_priced,
    mt.repricing_method,
    case
        when mt.repricing_method is not null then null
        when mt.model is null then 'no_model'
        when not mt.model_on_rate_card then 'model_not_on_rate_card'
        when mt.priced_at is null then 'no_timestamp'
        when mt.has_no_tokens and mt.cost_usd_logged is not null and not mt.has_valid_logged_cost
            then 'invalid_logged_cost'
        when mt.has_no_tokens then 'no_token_counts'
        when mt.has_negative_tokens then 'invalid_token_counts'
        when mt.rate_id is null then 'no_rate_in_force'
        else 'incomplete_token_counts'
    end as unpriced_reason,
    case
        when mt.repricing_method = 'superseded_rate_correction' then mt.correcting_rate_id
        when mt.repricing_method <> 'no_model_call' then mt.rate_id
    end as rate_id,
    case when mt.repricing_method = 'superseded_rate_correction' then mt.superseded_rate_id end
        as superseded_rate_id,
    case when mt.repricing_method = 'superseded_rate_correction' then mt.correction_factor end
        as correction_factor,
    case when mt.repricing_method <> 'no_model_call' then coalesce(mt.billing, 'per_token') end as billing,
    case
        when mt.repricing_method = 'superseded_rate_correction' then mt.correcting_price_table
        when mt.repricing_method <> 'no_model_call' then mt.price_table
    end as price_table,
    case
        when mt.repricing_method = 'superseded_rate_correction' then mt.correcting_rate_date
        when mt.repricing_method <> 'no_model_call' then mt.rate_date
        else v.rate_card_date
    end as price_table_date,
    mt.repricing_method is not null and mt.cost_basis <> 'estimate' as cost_complete,
    mt.cost_basis in ('actual', 'repriced', 'corrected', 'logged_current', 'no_model_call') as cost_best_complete,
    mt.priced_at as stamp,
    mt.stamp_is_naive,
    mt.run_id,
    mt.variant_id,
    mt.task_id,
    mt.spend_kind,
    mt.unit_key,
    mt.is_no_model_call,
    mt.source_file,
    mt.source_line,
    mt.load_id
from best as mt
cross join rate_card_version as v
