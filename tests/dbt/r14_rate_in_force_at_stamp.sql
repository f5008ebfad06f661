-- R14: the rate-card row used is the one in force at the record's timestamp (model, [effective_from,
-- effective_to), UTC time-of-day window); a correction starts from the superseded row in force at that
-- timestamp; and a record with token counts (none below 0) whose model has a row in force is priced.
with c as (
    select
        f.*,
        {{ utc_time_of_day('f.priced_at') }} as t
    from {{ ref('fct_costs_repriced') }} as f
),

rates as (select * from {{ ref('rate_card') }})

select
    c.source_family,
    c.record_key,
    c.rate_id,
    'rate row not in force' as problem
from c
inner join rates as r
    on c.rate_id = r.rate_id
where
    c.repricing_method <> 'superseded_rate_correction'
    and not (
        r.model = c.model
        and c.priced_at >= r.effective_from
        and (r.effective_to is null or c.priced_at < r.effective_to)
        and (r.tod_start_utc is null or (c.t >= r.tod_start_utc and c.t < r.tod_end_utc))
    )
union all
select
    c.source_family,
    c.record_key,
    c.superseded_rate_id as rate_id,
    'correction not from the superseded row in force' as problem
from c
left join rates as s
    on c.superseded_rate_id = s.rate_id
where
    c.repricing_method = 'superseded_rate_correction'
    and not coalesce(
        s.model = c.model
        and s.superseded_by = c.rate_id
        and c.priced_at >= s.effective_from
        and (s.effective_to is null or c.priced_at < s.effective_to)
        and (s.tod_start_utc is null or (c.t >= s.tod_start_utc and c.t < s.tod_end_utc)),
        false
    )
union all
select
    c.source_family,
    c.record_key,
    r.rate_id,
    'unpriced although a rate row is in force' as problem
from c
inner join rates as r
    on
        c.model = r.model
        and r.superseded_by is null
        and c.priced_at >= r.effective_from
        and (r.effective_to is null or c.priced_at < r.effective_to)
        and (r.tod_start_utc is null or (c.t >= r.tod_start_utc and c.t < r.tod_end_utc))
where
    not c.is_priced
    -- every token count known and none below 0 (a count below 0 is no count: it prices nothing)
    and c.uncached_input_tokens >= 0
    and c.cache_read_tokens >= 0
    and c.cache_write_tokens >= 0
    and c.output_tokens >= 0
