{#-
  One row per (log, scorer, reducer, sample the log attempted): the sample's reduced value (value_to_float after
  the epoch reducer, reductions.json), or 0 when the sample has none (it errored and was not scored: counted as
  incorrect, R29; `is_unscored` says so). The unit of inspect_model_pairs: epochs of a sample are replicates,
  already reduced to one value, so a sample is one cluster.
-#}
with attempted as (
    select distinct
        s.source_file,
        s.sample_id
    from {{ ref('stg_inspect__samples') }} as s
),

reducers as (
    select distinct
        r.source_file,
        r.scorer,
        r.reducer
    from {{ ref('stg_inspect__reductions') }} as r
),

reduced as (
    select * from {{ ref('stg_inspect__reductions') }}
)

select
    a.source_file,
    k.scorer,
    k.reducer,
    a.sample_id,
    coalesce(v.value_float, 0.0) as value,
    v.value_float is null as is_unscored
from attempted as a
inner join reducers as k on a.source_file = k.source_file
left join reduced as v
    on
        a.source_file = v.source_file
        and k.scorer = v.scorer
        and k.reducer is not distinct from v.reducer
        and a.sample_id = v.sample_id
