{#-
  One row per (log, score, reducer): inspect_ai's accuracy / mean and stderr recomputed from the reduced
  per-sample values (int_inspect__sample_values), as inspect_ai computes them: the mean of value_to_float over the
  samples that have a reduced value, and its standard error with the cluster as the unit: each sample its own
  cluster (sample standard deviation / sqrt(n), inspect's stderr()) or, where the score declares
  stderr(cluster=key), the samples sharing that metadata value (inspect's clustered stderr, with the C / (C - 1)
  correction: cluster_se); stderr_per_sample is inspect's stderr() beside it, for a score that declares both. Beside them, the same mean over every sample the log attempted (an unscored, errored
  sample counts 0, R29), and the sample standard deviation and variance of the scored values (inspect's std() and
  var()). Each mean carries its 95% interval by the statistics conventions on the same clusters
  (t with C - 1 degrees of freedom), so the SE of the scored mean is inspect's stderr; a mean whose values are
  all 0 or 1 (a pass/fail scorer, one epoch or a pass/fail reducer), or the `mean` reducer's pass rates over
  pass/fail epochs, is a clustered binary rate over its observations (the epochs) and takes the rate's interval,
  Wilson at the design-effect n, at most the observations.
  A score with a grouped metric (inspect_ai's grouped(metric, group_key)) gets one more row per group of its
  samples (group_key, group_name: the sample-metadata value, as grouped() names the group), the same numbers over
  that group's samples; the row of the whole score has group_key and group_name NULL.
  inspect_ai's mean() takes any number, and a log does not state a score's range: a score (and reducer) whose values
  all lie in [0, 1] is on the unit range (is_unit_range, the same on its whole and every group), and its intervals
  are the unit-range ones; any other score's are mean -/+ t(C - 1) x SE, unclipped, NULL when SE = 0.
-#}
{#- one metric of a log: a score, its scorer and reducer, and (for a grouped metric) one group of its samples #}
{%- set metric = ['source_file', 'score_name', 'scorer', 'reducer', 'group_key', 'group_name'] %}

with ungrouped_values as (select * from {{ ref('int_inspect__sample_values') }}),

metadata as (select * from {{ ref('int_inspect__sample_metadata') }}),

-- the metadata keys the score's grouped metrics group its samples by
group_keys as (
    select distinct
        m.source_file,
        m.score_name,
        m.scorer,
        m.reducer,
        m.group_key
    from {{ ref('stg_inspect__metrics') }} as m
    where m.metric_group = 'grouped' and m.group_key is not null
),

-- every sample once in its score's whole, and once more in its group of each grouped metric's key
sample_values as (
    select
        v.*,
        cast(null as {{ dbt.type_string() }}) as group_key,
        cast(null as {{ dbt.type_string() }}) as group_name
    from ungrouped_values as v
    union all
    select
        v.*,
        g.group_key,
        md.metadata_str as group_name
    from ungrouped_values as v
    inner join group_keys as g
        on
            {{ same_keys('v', 'g', ['source_file', 'score_name', 'scorer'], null_safe=['reducer']) }}
    left join metadata as md
        on
            {{ same_keys('v', 'md', ['source_file', 'sample_id']) }}
            and g.group_key = md.metadata_key
),

clusters as (
    select
        {{ qualified('v', metric) }},
        v.cluster_key,
        v.cluster_id,
        sum(case when not v.is_unscored then v.value end) as scored_sum,
        count(case when not v.is_unscored then 1 end) as scored_n,
        count(case when not v.is_unscored and not v.is_binary then 1 end) as scored_nonbinary,
        sum(case when not v.is_unscored then v.n_observations end) as scored_observations,
        sum(v.value_errors_as_incorrect) as attempted_sum,
        count(*) as attempted_n,
        count(case when not v.is_binary_errors_as_incorrect then 1 end) as attempted_nonbinary,
        sum(v.n_observations_errors_as_incorrect) as attempted_observations,
        count(case when v.value_errors_as_incorrect is null then 1 end) as attempted_not_rereduced,
        sum(v.n_epochs_unscored) as epochs_unscored,
        min(v.value) as attempted_min,
        max(v.value) as attempted_max
    from sample_values as v
    group by {{ qualified('v', metric) }}, v.cluster_key, v.cluster_id
),

spread as (
    select
        {{ qualified('v', metric) }},
        stddev_samp(case when not v.is_unscored then v.value end) as std_recomputed,
        var_samp(case when not v.is_unscored then v.value end) as var_recomputed,
        -- inspect's stderr() with no cluster, each sample its own (a score can declare a clustered one beside it)
        stddev_samp(case when not v.is_unscored then v.value end)
        / sqrt(count(case when not v.is_unscored then 1 end)) as stderr_per_sample
    from sample_values as v
    group by {{ qualified('v', metric) }}
),

summed as (
    select
        {{ qualified('c', metric) }},
        max(c.cluster_key) as cluster_key,
        cast(sum(c.scored_n) as bigint) as n_reduced,
        count(case when c.scored_n > 0 then 1 end) as n_clusters_scored,
        sum(c.scored_sum) / nullif(sum(c.scored_n), 0) as mean_recomputed,
        {{ cluster_se('c.scored_sum', 'c.scored_n') }} as stderr_recomputed,
        sum(c.scored_nonbinary) as n_scored_nonbinary,
        cast(sum(c.scored_observations) as bigint) as n_observations_scored,
        cast(sum(c.attempted_n) as bigint) as n_samples_attempted,
        count(*) as n_clusters,
        -- NULL where a sample's epochs could not be reduced again with its unscored ones counted 0
        case
            when sum(c.attempted_not_rereduced) = 0 then sum(c.attempted_sum) / sum(c.attempted_n)
        end as mean_errors_as_incorrect,
        case
            when sum(c.attempted_not_rereduced) = 0 then {{ cluster_se('c.attempted_sum', 'c.attempted_n') }}
        end as errors_as_incorrect_se,
        cast(sum(c.attempted_not_rereduced) as bigint) as n_samples_not_rereduced,
        cast(sum(c.epochs_unscored) as bigint) as n_epochs_unscored,
        sum(c.attempted_nonbinary) as n_attempted_nonbinary,
        cast(sum(c.attempted_observations) as bigint) as n_observations_attempted,
        min(c.attempted_min) >= 0 and max(c.attempted_max) <= 1 as is_unit_range_here
    from clusters as c
    group by {{ qualified('c', metric) }}
),

-- a score's range is its whole's (every sample it attempted), the same for each of its groups
ranged as (
    select
        s.*,
        min(case when s.is_unit_range_here then 1 else 0 end) over (
            partition by s.source_file, s.score_name, s.scorer, s.reducer
        ) = 1 as is_unit_range
    from summed as s
)

select
    {{ qualified('s', metric) }},
    s.cluster_key,
    s.n_reduced,
    s.n_clusters_scored,
    s.n_samples_attempted,
    s.n_clusters,
    s.n_observations_scored,
    s.n_observations_attempted,
    s.n_epochs_unscored,
    s.n_samples_not_rereduced,
    s.n_scored_nonbinary = 0 as is_binary_scored,
    s.n_attempted_nonbinary = 0 as is_binary_attempted,
    s.is_unit_range,
    s.mean_recomputed,
    s.stderr_recomputed,
    d.std_recomputed,
    d.var_recomputed,
    d.stderr_per_sample,
    {{ mean_interval_columns('s.mean_recomputed', 's.stderr_recomputed', 'mean', 's.n_clusters_scored', 's.n_observations_scored',
                             binary='s.n_scored_nonbinary = 0', bounded='s.is_unit_range') }},
    s.mean_errors_as_incorrect,
    {{ mean_interval_columns('s.mean_errors_as_incorrect', 's.errors_as_incorrect_se', 'errors_as_incorrect', 's.n_clusters',
                             's.n_observations_attempted', binary='s.n_attempted_nonbinary = 0', bounded='s.is_unit_range') }}
from ranged as s
inner join spread as d
    on
        {{ same_keys('s', 'd', ['source_file', 'score_name', 'scorer'], null_safe=['reducer', 'group_key', 'group_name']) }}
