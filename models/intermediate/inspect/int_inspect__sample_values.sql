{#-
  One row per (log, score, reducer, sample the log attempted): the sample's reduced value (value_to_float after
  the epoch reducer, reductions.json), or 0 when the sample has none (it errored and was not scored: counted as
  incorrect, R29; `is_unscored` says so). A score is what the header's results name: a scorer's value, or one key
  of a dict-valued scorer that declares a metric per key (score_name = the key, the value that key's). Each
  sample carries its cluster: the value of the sample-metadata key a clustered stderr declares
  (stderr(cluster=...)), else the sample itself (epochs of a sample are replicates, already reduced to one
  value). The unit of int_inspect__metrics_recomputed and inspect_model_pairs.
  `n_observations` and `is_binary` say what the value is made of, for the interval of the mean: a value the `mean`
  reducer took over epochs that each scored 0 or 1 is the pass rate of that many pass/fail observations (the
  sample a cluster of them); any other value is one observation, pass/fail when it is 0 or 1 (an unscored sample
  is one 0).
-#}
{#- one metric of a log: a score, its scorer and reducer #}
{%- set metric = ['source_file', 'score_name', 'scorer', 'reducer'] %}

with samples as (
    select * from {{ ref('stg_inspect__samples') }}
),

reduced as (
    select * from {{ ref('stg_inspect__reductions') }}
),

attempted as (
    select
        s.source_file,
        s.sample_id
    from samples as s
    group by s.source_file, s.sample_id
),

-- the scores the log states results for, with the cluster key any of their metrics declares
scores as (
    select
        {{ qualified('m', metric) }},
        max(m.cluster_key) as cluster_key
    from {{ ref('stg_inspect__metrics') }} as m
    group by {{ qualified('m', metric) }}
),

metadata as (
    select * from {{ ref('int_inspect__sample_metadata') }}
),

epoch_scores as (
    select * from {{ ref('stg_inspect__sample_scores') }}
),

epoch_score_keys as (
    select * from {{ ref('stg_inspect__sample_score_keys') }}
),

reduced_keys as (
    select * from {{ ref('stg_inspect__reduction_keys') }}
),

-- the scores of each epoch, per score name (a dict-valued scorer's keys), before the epoch reducer
epoch_values as (
    select
        e.source_file,
        e.scorer,
        e.scorer as score_name,
        e.sample_id,
        e.value_float
    from epoch_scores as e
    union all
    select
        k.source_file,
        k.scorer,
        k.score_name,
        k.sample_id,
        k.value_float
    from epoch_score_keys as k
),

epochs as (
    select
        e.source_file,
        e.scorer,
        e.score_name,
        e.sample_id,
        count(*) as n_epochs,
        count(case when e.value_float in (0, 1) then 1 end) as n_epochs_binary,
        avg(e.value_float) as epoch_mean
    from epoch_values as e
    group by e.source_file, e.scorer, e.score_name, e.sample_id
),

values_by_score as (
    select
        r.source_file,
        r.scorer,
        r.scorer as score_name,
        r.reducer,
        r.sample_id,
        r.value_float
    from reduced as r
    union all
    select
        k.source_file,
        k.scorer,
        k.score_name,
        k.reducer,
        k.sample_id,
        k.value_float
    from reduced_keys as k
)

select
    a.source_file,
    k.score_name,
    k.scorer,
    k.reducer,
    a.sample_id,
    k.cluster_key,
    coalesce(md.metadata_json, a.sample_id) as cluster_id,
    coalesce(v.value_float, 0.0) as value,
    v.value_float is null as is_unscored,
    -- a `mean` over pass/fail epochs (the value is their mean): that many observations, else one
    case
        when
            k.reducer = 'mean' and ep.n_epochs = ep.n_epochs_binary
            and abs(v.value_float - ep.epoch_mean) <= 1e-9
            then ep.n_epochs
        else 1
    end as n_observations,
    coalesce(
        coalesce(v.value_float, 0.0) in (0, 1)
        or (
            k.reducer = 'mean' and ep.n_epochs = ep.n_epochs_binary
            and abs(v.value_float - ep.epoch_mean) <= 1e-9
        ),
        false
    ) as is_binary
from attempted as a
inner join scores as k on a.source_file = k.source_file
left join metadata as md
    on
        {{ same_keys('a', 'md', ['source_file', 'sample_id']) }}
        and k.cluster_key = md.metadata_key
left join values_by_score as v
    on
        a.source_file = v.source_file
        and k.scorer = v.scorer
        and k.score_name = v.score_name
        and k.reducer is not distinct from v.reducer
        and a.sample_id = v.sample_id
left join epochs as ep
    on
        a.source_file = ep.source_file
        and k.scorer = ep.scorer
        and k.score_name = ep.score_name
        and a.sample_id = ep.sample_id
