-- R14: among non-superseded rate-card rows, at most one is in force for a model at any instant and time of day
-- (so "the row in effect at the record's timestamp" is well defined); time-of-day windows are well formed.
with r as (
    select
        rc.*,
        coalesce(rc.tod_start_utc, cast('00:00:00' as {{ engine_type('time') }})) as t0,
        coalesce(rc.tod_end_utc, cast('24:00:00' as {{ engine_type('time') }})) as t1
    from {{ ref('rate_card') }} as rc
    where rc.superseded_by is null
)

select
    a.rate_id,
    b.rate_id as overlapping_rate_id
from r as a
inner join r as b
    on
        a.model = b.model
        and a.rate_id < b.rate_id
        and a.effective_from < coalesce(b.effective_to, cast('9999-12-31' as {{ type_timestamptz() }}))
        and b.effective_from < coalesce(a.effective_to, cast('9999-12-31' as {{ type_timestamptz() }}))
        and a.t0 < b.t1
        and b.t0 < a.t1
union all
select
    r.rate_id,
    null as overlapping_rate_id
from r
where
    r.t0 >= r.t1
    or (r.tod_start_utc is null) <> (r.tod_end_utc is null)
    or (r.effective_to is not null and r.effective_to <= r.effective_from)
