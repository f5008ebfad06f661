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
  inspect_ai reduces a sample's epochs over the epochs that were scored: an epoch that errored (or that the score
  left unscored) is left out, so 2 correct epochs and 1 errored one read 1.0. `value_errors_as_incorrect` is the
  sample's value with every such epoch counted 0 (R29), re-reduced where the reducer allows it exactly: `mean`
  (the sum of the scored epochs over the epochs attempted), `max` (at least 0), `median` (of the scored values
  and a 0 per unscored epoch, where the scored values are at least 0 and their median is inspect_ai's value),
  `at_least_k` (unchanged, for a threshold above 0, its default 1.0), and `pass_at_k` and `pass_k_k` (the
  estimator with c of the n attempted epochs at 1 or more, where it gives inspect_ai's value on the scored ones,
  and for pass_at_k over epochs that are not all pass/fail, where that value is below 1: at 1 it does not tell
  which threshold counted a pass); an unscored sample is 0,
  a sample with no unscored epoch keeps its value, and any other sample with an unscored epoch is NULL (not
  re-reduced: its metric's value_errors_as_incorrect is NULL and says why). `n_epochs_unscored` counts those
  epochs.
  A NaN score, of an epoch or reduced (pass_at_k over fewer than k scored epochs is NaN), is unscored: inspect_ai
  leaves it out of its metrics and counts it in unscored_samples.
-#}
{#- one metric of a log: a score, its scorer and reducer #}
{%- set metric = ['source_file', 'score_name', 'scorer', 'reducer'] %}

with samples as (select * from {{ ref('stg_inspect__samples') }}),

reduced as (select * from {{ ref('stg_inspect__reductions') }}),

-- each sample the log attempted, with the epochs it attempted (an errored epoch has a record and no score)
attempted as (
    select
        s.source_file,
        s.sample_id,
        count(distinct s.epoch) as n_epochs_attempted
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

metadata as (select * from {{ ref('int_inspect__sample_metadata') }}),

epoch_scores as (select * from {{ ref('stg_inspect__sample_scores') }}),

epoch_score_keys as (select * from {{ ref('stg_inspect__sample_score_keys') }}),

reduced_keys as (select * from {{ ref('stg_inspect__reduction_keys') }}),

-- the scores of each epoch, per score name (a dict-valued scorer's keys), before the epoch reducer; a NaN score
-- is unscored, as inspect_ai's metrics and reducers take it
epoch_values as (
    select
        e.source_file,
        e.scorer,
        e.scorer as score_name,
        e.sample_id,
        {{ inspect_scored_float('e.value_float') }} as value_float
    from epoch_scores as e
    union all
    select
        k.source_file,
        k.scorer,
        k.score_name,
        k.sample_id,
        {{ inspect_scored_float('k.value_float') }} as value_float
    from epoch_score_keys as k
),

epochs as (
    select
        e.source_file,
        e.scorer,
        e.score_name,
        e.sample_id,
        count(*) as n_epochs,
        count(e.value_float) as n_epochs_scored,
        count(case when e.value_float in (0, 1) then 1 end) as n_epochs_binary,
        count(case when e.value_float >= 1 then 1 end) as n_epochs_passed,
        min(e.value_float) as epoch_min,
        avg(e.value_float) as epoch_mean,
        sum(e.value_float) as epoch_sum
    from epoch_values as e
    group by e.source_file, e.scorer, e.score_name, e.sample_id
),

-- the scored epochs of a sample in order of value, with how many were scored and attempted, for its median
ranked_epochs as (
    select
        e.source_file,
        e.scorer,
        e.score_name,
        e.sample_id,
        e.value_float,
        row_number() over (
            partition by e.source_file, e.scorer, e.score_name, e.sample_id order by e.value_float
        ) as value_rank,
        count(*) over (partition by e.source_file, e.scorer, e.score_name, e.sample_id) as n_scored,
        a.n_epochs_attempted
    from epoch_values as e
    inner join attempted as a on {{ same_keys('e', 'a', ['source_file', 'sample_id']) }}
    where e.value_float is not null
),

-- the median of the scored epochs, and of the attempted ones with each unscored epoch a 0 ahead of the scored values
-- (statistics.median: the middle value, or the mean of the middle two; for values of at least 0, a middle position
-- among the zeros is 0): a middle position among the attempted epochs is a scored rank less the unscored count
epoch_medians as (
    select
        r.source_file,
        r.scorer,
        r.score_name,
        r.sample_id,
        avg(case when r.value_rank in (floor((r.n_scored + 1) / 2.0), floor(r.n_scored / 2.0) + 1) then r.value_float end)
            as median_scored,
        (
            coalesce(max(case
                when r.value_rank = floor((r.n_epochs_attempted + 1) / 2.0) - (r.n_epochs_attempted - r.n_scored)
                    then r.value_float
            end), 0.0)
            + coalesce(max(case
                when r.value_rank = floor(r.n_epochs_attempted / 2.0) + 1 - (r.n_epochs_attempted - r.n_scored)
                    then r.value_float
            end), 0.0)
        ) / 2 as median_attempted
    from ranked_epochs as r
    group by r.source_file, r.scorer, r.score_name, r.sample_id
),

values_by_score as (
    select
        r.source_file,
        r.scorer,
        r.scorer as score_name,
        r.reducer,
        r.sample_id,
        {{ inspect_scored_float('r.value_float') }} as value_float
    from reduced as r
    union all
    select
        k.source_file,
        k.scorer,
        k.score_name,
        k.reducer,
        k.sample_id,
        {{ inspect_scored_float('k.value_float') }} as value_float
    from reduced_keys as k
),

-- each sample's value, and how its epochs were reduced (a `mean` over pass/fail epochs: its value is their mean)
sample_values as (
    select
        a.source_file,
        k.score_name,
        k.scorer,
        k.reducer,
        a.sample_id,
        k.cluster_key,
        -- the cluster inspect_ai forms (values Python calls equal are one); a sample without the key is its own
        coalesce({{ inspect_cluster_id('md.metadata_json') }}, 'sample ' || a.sample_id) as cluster_id,
        v.value_float,
        a.n_epochs_attempted,
        ep.n_epochs,
        ep.epoch_sum,
        ep.n_epochs_scored,
        ep.n_epochs_passed,
        ep.epoch_min,
        md_ep.median_scored,
        md_ep.median_attempted,
        coalesce(ep.n_epochs = ep.n_epochs_binary, false) as has_binary_epochs,
        -- the k of inspect_ai's pass_at_k (1 - C(n - c, k) / C(n, k)) and pass_k_k (pass^k: C(c, k) / C(n, k))
        coalesce(substr(k.reducer, 1, 8) = 'pass_at_', false) as is_pass_at,
        case
            when substr(k.reducer, 1, 8) = 'pass_at_' then {{ try_cast_text('substr(k.reducer, 9)', 'int') }}
            when substr(k.reducer, 1, 7) = 'pass_k_' then {{ try_cast_text('substr(k.reducer, 8)', 'int') }}
        end as pass_k,
        greatest(a.n_epochs_attempted - coalesce(ep.n_epochs_scored, 0), 0) as n_epochs_unscored,
        coalesce(k.reducer = 'mean' and abs(v.value_float - ep.epoch_mean) <= 1e-9, false) as is_mean_of_epochs
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
    left join epoch_medians as md_ep
        on
            a.source_file = md_ep.source_file
            and k.scorer = md_ep.scorer
            and k.score_name = md_ep.score_name
            and a.sample_id = md_ep.sample_id
),

-- pass_at_k and pass^k over the scored epochs (inspect_ai's value) and over every attempted epoch (c of n passed)
pass_k_estimates as (
    select
        s.*,
        abs(
            s.value_float - case
                when s.is_pass_at
                    then 1 - {{ stats_comb_ratio('s.n_epochs_scored - s.n_epochs_passed', 's.n_epochs_scored', 's.pass_k') }}
                else {{ stats_comb_ratio('s.n_epochs_passed', 's.n_epochs_scored', 's.pass_k') }}
            end
        ) <= 1e-9 as is_pass_k_of_scored,
        case
            when s.is_pass_at
                then 1 - {{ stats_comb_ratio('s.n_epochs_attempted - s.n_epochs_passed', 's.n_epochs_attempted', 's.pass_k') }}
            else {{ stats_comb_ratio('s.n_epochs_passed', 's.n_epochs_attempted', 's.pass_k') }}
        end as pass_k_of_attempted
    from sample_values as s
),

-- the value with every unscored epoch counted 0, where the reducer can be taken again exactly (NULL where not)
errors_as_incorrect as (
    select
        s.*,
        case
            when s.n_epochs_unscored = 0 then coalesce(s.value_float, 0.0)
            -- where the estimator on the scored epochs gives inspect_ai's own value: over pass/fail epochs (whose
            -- pass_at_k is NaN, so unscored, below k scored epochs too), and below 1 over any others
            when
                (s.is_pass_k_of_scored and (s.has_binary_epochs or s.value_float < 1 or not s.is_pass_at))
                or (s.has_binary_epochs and s.value_float is null and s.n_epochs < s.pass_k)
                then s.pass_k_of_attempted
            when s.value_float is null then 0.0
            when s.is_mean_of_epochs then s.epoch_sum / s.n_epochs_attempted
            when s.reducer = 'max' then greatest(s.value_float, 0.0)
            when s.reducer = 'median' and s.epoch_min >= 0 and abs(s.value_float - s.median_scored) <= 1e-9
                then s.median_attempted
            when substr(s.reducer, 1, 9) = 'at_least_' and s.value_float in (0, 1) then s.value_float
        end as value_errors_as_incorrect
    from pass_k_estimates as s
)

select
    e.source_file,
    e.score_name,
    e.scorer,
    e.reducer,
    e.sample_id,
    e.cluster_key,
    e.cluster_id,
    coalesce(e.value_float, 0.0) as value,
    e.value_float is null as is_unscored,
    -- a `mean` over pass/fail epochs (the value is their mean): that many observations, else one
    case when e.is_mean_of_epochs and e.has_binary_epochs then e.n_epochs else 1 end as n_observations,
    coalesce(coalesce(e.value_float, 0.0) in (0, 1) or (e.is_mean_of_epochs and e.has_binary_epochs), false) as is_binary,
    cast(e.n_epochs_attempted as bigint) as n_epochs_attempted,
    cast(e.n_epochs_unscored as bigint) as n_epochs_unscored,
    e.value_errors_as_incorrect,
    -- the same with every attempted epoch an observation, where the `mean` was taken again over them
    case when e.is_mean_of_epochs and e.has_binary_epochs then e.n_epochs_attempted else 1 end
        as n_observations_errors_as_incorrect,
    coalesce(e.value_errors_as_incorrect in (0, 1) or (e.is_mean_of_epochs and e.has_binary_epochs), false)
        as is_binary_errors_as_incorrect
from errors_as_incorrect as e
