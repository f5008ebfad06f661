{#-
  R27 (what the logs claim): a logged cost must agree with the rate-card row in force when it was
  logged. For every record with both a logged cost and token counts, the logged cost is compared with
  the cost of its tokens at the (never superseded) row in force at its stamp; a disagreement beyond
  rounding (0.5% and 1e-6 USD) is a finding that names the card row the logged cost matches instead
  (a superseded row: a stale price table in the harness), if any. This is how a stale price table is
  caught on the next load instead of in a paper's errata. Per-request models are not audited (their
  logged cost is a provider bill, not tokens x rate).
-#}
with records as (
    select * from {{ ref('int_costs__matrix') }}
    union all
    select * from {{ ref('int_costs__layered') }}
    union all
    select * from {{ ref('int_costs__coder_eval') }}
),

audited as (
    select r.*
    from records as r
    where
        r.cost_usd_logged is not null
        and r.priced_at is not null
        and r.uncached_input_tokens is not null
        and r.output_tokens is not null
),

names as {{ model_name_map('audited', 'model_raw', ref('model_aliases')) }},

rates as (select * from {{ ref('rate_card') }}),

normalised as (
    select
        a.*,
        n.model,
        {{ utc_time_of_day('a.priced_at') }} as priced_time_utc
    from audited as a
    inner join names as n
        on a.model_raw = n.model_raw
),

-- the token cost of each record at every per-token row of its model's card (any date, superseded too)
at_rows as (
    select
        nm.record_key,
        nm.source_family,
        r.rate_id,
        r.superseded_by,
        nm.priced_at >= r.effective_from
        and (r.effective_to is null or nm.priced_at < r.effective_to)
        and (r.tod_start_utc is null or (nm.priced_time_utc >= r.tod_start_utc and nm.priced_time_utc < r.tod_end_utc))
            as in_force,
        (
            nm.uncached_input_tokens * r.input_usd_per_mtok
            + coalesce(nm.cache_read_tokens, 0) * r.cache_read_usd_per_mtok
            + coalesce(nm.cache_write_tokens, 0) * r.cache_write_usd_per_mtok
            + nm.output_tokens * r.output_usd_per_mtok
        ) / 1e6 as cost_at_row,
        nm.cost_usd_logged
    from normalised as nm
    inner join rates as r
        on nm.model = r.model and r.billing = 'per_token'
),

judged as (
    select
        a.*,
        a.in_force and a.superseded_by is null as is_current_in_force,
        abs(a.cost_usd_logged - a.cost_at_row) <= greatest(1e-6, 0.005 * abs(a.cost_at_row)) as agrees
    from at_rows as a
),

per_record as (
    select
        j.source_family,
        j.record_key,
        max(j.cost_usd_logged) as cost_usd_logged,
        max(case when j.in_force and j.superseded_by is null then j.rate_id end) as rate_in_force,
        max(case when j.in_force and j.superseded_by is null then j.cost_at_row end) as cost_in_force,
        bool_or(j.in_force and j.superseded_by is null and j.agrees) as agrees_in_force,
        -- the row the logged cost matches instead: a superseded row first, else any other row
        min(case when j.agrees and not j.is_current_in_force and j.superseded_by is not null then j.rate_id end)
            as matching_superseded,
        min(case when j.agrees and not j.is_current_in_force then j.rate_id end) as matching_other
    from judged as j
    group by j.source_family, j.record_key
)

select
    'R27' as rule_id,
    p.source_family,
    nm.source_file,
    nm.source_line,
    'logged cost ' || {{ number_text('p.cost_usd_logged', 8) }} || ' USD for ' || nm.model_raw
    || ' differs from ' || {{ number_text('p.cost_in_force', 8) }} || ' USD at the rate row in force ('
    || p.rate_in_force || ') at ' || {{ instant_text('nm.priced_at') }} || '; '
    || case
        when p.matching_superseded is not null
            then 'it matches the SUPERSEDED row ' || p.matching_superseded || ': the harness priced it with a stale table'
        when p.matching_other is not null
            then 'it matches the row ' || p.matching_other || ' (another date or window)'
        else 'it matches no rate-card row'
    end
    || '. Quote fct_costs_repriced.cost_usd_best (repriced from the tokens at the row in force), not the logged cost.'
        as detail
from per_record as p
inner join normalised as nm
    on p.record_key = nm.record_key and p.source_family = nm.source_family
where p.rate_in_force is not null and not p.agrees_in_force
