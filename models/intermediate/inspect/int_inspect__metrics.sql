{#-
  One row per (log, score, reducer, metric) inspect_ai stored: its stored value beside evalhouse's recomputation
  from the log's reduced samples (accuracy, mean, stderr, std, var; NULL for other metrics) and the mean with errored,
  unscored samples counted 0. Read by inspect_metrics and by the R28 finding.
  An entry of a grouped metric (grouped(metric, group_key)) is recomputed as the metric it applies (`metric_base`)
  over its group's samples: the group whose name, put in the metric's name_template, is the entry's name; its
  whole (`all`, or its all_label) over every sample. A whole that is the mean of the group values (all="groups")
  is recomputed as that mean, the unweighted mean over the groups with a value, as inspect_ai computes it; it is
  not the metric over the samples, so its metric_base is NULL. Where the groups' metric is accuracy or mean, it
  carries the interval of a mean of groups, each group a stratum weighted 1/G (mean_of_groups_columns), and the
  same mean with every errored, unscored sample counted 0 (over the groups with an attempted sample).
  value_ci_reason / value_errors_as_incorrect_ci_reason say why an interval is NULL (mean_ci_reason; 'not a mean'
  for stderr, std, var and other metrics), NULL where there is one.
  A stderr is recomputed on the clusters it declares: the score's (int_inspect__sample_values), or each sample its
  own for a stderr with no cluster in a score that declares a clustered one too; a stderr with a second, different
  cluster key is not recomputed (is_recomputed false).
  The mean with errored samples counted 0 counts every epoch without a score 0 too (n_epochs_unscored); it is NULL,
  and its reason says so, where a sample's reducer cannot be taken again that way (int_inspect__sample_values).
-#}
{%- set not_rereduced = 'epochs without a score under a reducer evalhouse cannot take again with them counted 0 '
                        ~ '(it does for mean, max, median, at_least_k, pass_at_k and pass_k_k)' %}
{%- set recomputation = ['source_file', 'score_name', 'scorer', 'reducer', 'group_key', 'group_name'] %}

with stored as (select * from {{ ref('stg_inspect__metrics') }}),

recomputed as (select * from {{ ref('int_inspect__metrics_recomputed') }}),

-- an entry's own name: its key, unless inspect_ai made the key unique with a number (`all2` for a second `all`);
-- and the cluster key of its score (any of its stderrs that declares one: the clusters of int_inspect__sample_values)
named as (
    select
        s.*,
        coalesce(s.metric_name, s.metric) as entry_name,
        max(s.cluster_key) over (partition by s.source_file, s.score_name, s.scorer, s.reducer) as score_cluster_key
    from stored as s
),

-- what each stored value is: the metric itself, or the metric a grouped metric applies, over which samples
kinds as (
    select
        s.*,
        (
            s.metric_group = 'grouped' and coalesce(s.group_all, 'samples') <> 'false'
            and s.entry_name = coalesce(s.group_all_label, 'all')
        ) as is_group_whole,
        (
            s.metric_group = 'grouped' and s.group_all = 'groups'
            and s.entry_name = coalesce(s.group_all_label, 'all')
        ) as is_mean_of_groups,
        case
            when coalesce(s.metric_group, '') <> 'grouped' then s.entry_name
            when
                s.entry_name = coalesce(s.group_all_label, 'all') and coalesce(s.group_all, 'samples') = 'groups'
                then null
            else s.grouped_metric
        end as metric_base,
        -- what a stderr is recomputed as: over the score's clusters, or (a stderr with no cluster in a score that
        -- declares one too) inspect's stderr() over the samples; NULL for a stderr of another cluster key than the
        -- score's, which is not recomputed
        case
            when s.cluster_key is null and s.score_cluster_key is not null then 'stderr_per_sample'
            when s.cluster_key is null or s.cluster_key = s.score_cluster_key then 'stderr'
        end as stderr_as
    from named as s
),

-- an entry that is a stderr over the samples has each sample its own cluster
entries as (
    select
        k.*,
        coalesce(coalesce(k.metric_base, k.grouped_metric) = 'stderr' and k.stderr_as = 'stderr_per_sample', false)
            as is_stderr_per_sample
    from kinds as k
),

-- each metric evalhouse recomputes, over each recomputation's samples (a score's, or one group's); inspect_ai's
-- stderr / std / var are 0 below two observations (clusters, for a clustered stderr)
metric_values as (
    select
        {{ qualified('r', recomputation) }},
        b.metric_base,
        case b.metric_base
            when 'stderr' then coalesce(r.stderr_recomputed, case when r.n_reduced > 0 then 0.0 end)
            when 'std' then coalesce(r.std_recomputed, case when r.n_reduced > 0 then 0.0 end)
            when 'var' then coalesce(r.var_recomputed, case when r.n_reduced > 0 then 0.0 end)
            when 'stderr_per_sample' then coalesce(r.stderr_per_sample, case when r.n_reduced > 0 then 0.0 end)
            else r.mean_recomputed
        end as value_recomputed
    from recomputed as r
    cross join (values ('accuracy'), ('mean'), ('stderr'), ('std'), ('var'), ('stderr_per_sample')) as b (metric_base)
),

-- grouped(..., all="groups"): the whole is the unweighted mean of the group values (groups with no scored sample
-- have none, and inspect_ai has no such group)
group_means as (
    select
        v.source_file,
        v.score_name,
        v.scorer,
        v.reducer,
        v.group_key,
        v.metric_base,
        avg(v.value_recomputed) as value_recomputed
    from metric_values as v
    where v.group_name is not null
    group by v.source_file, v.score_name, v.scorer, v.reducer, v.group_key, v.metric_base
),

-- the parts of the interval of a mean of groups, from each group's own mean, SE, clusters and observations
mean_of_groups as (
    select
        r.source_file,
        r.score_name,
        r.scorer,
        r.reducer,
        r.group_key,
        {{ mean_of_groups_columns('r.mean_recomputed', 'r.stderr_recomputed', 'r.n_clusters_scored',
                                  'r.n_observations_scored', 'r.is_binary_scored', 'scored') }},
        {{ mean_of_groups_columns('r.mean_errors_as_incorrect', 'r.errors_as_incorrect_se', 'r.n_clusters',
                                  'r.n_observations_attempted', 'r.is_binary_attempted', 'attempted') }},
        min(case when r.is_unit_range then 1 else 0 end) = 1 as is_unit_range,
        sum(r.n_samples_not_rereduced) as n_samples_not_rereduced
    from recomputed as r
    where r.group_name is not null
    group by r.source_file, r.score_name, r.scorer, r.reducer, r.group_key
),

-- the mean with unscored epochs counted 0 is none where a group's could not be taken (int_inspect__sample_values)
mean_of_groups_attempted as (
    select
        g.*,
        case when g.n_samples_not_rereduced = 0 then g.attempted_mean end as errors_as_incorrect
    from mean_of_groups as g
),

mean_of_groups_intervals as (
    select
        g.source_file,
        g.score_name,
        g.scorer,
        g.reducer,
        g.group_key,
        g.n_samples_not_rereduced,
        g.errors_as_incorrect,
        {{ mean_interval_columns('g.scored_mean', 'g.scored_se', 'mean', 'g.scored_df + 1', 'g.scored_n_obs',
                                 binary='g.scored_is_binary', bounded='g.is_unit_range') }},
        {{ mean_interval_columns('g.errors_as_incorrect', 'g.attempted_se', 'errors_as_incorrect', 'g.attempted_df + 1',
                                 'g.attempted_n_obs', binary='g.attempted_is_binary', bounded='g.is_unit_range') }},
        {{ mean_ci_reason('g.scored_mean', 'g.scored_se', 'g.scored_df + 1', 'g.is_unit_range',
                          too_few='a group has fewer than 2 clusters') }} as mean_ci_reason,
        {{ mean_ci_reason('g.errors_as_incorrect', 'g.attempted_se', 'g.attempted_df + 1', 'g.is_unit_range',
                          too_few='a group has fewer than 2 clusters') }} as errors_as_incorrect_ci_reason
    from mean_of_groups_attempted as g
)

select
    k.source_file,
    k.score_position,
    k.score_name,
    k.scorer,
    k.reducer,
    k.metric,
    k.metric_base,
    case when k.metric_group = 'grouped' then k.group_key end as grouped_by,
    case when k.metric_group = 'grouped' and not k.is_group_whole then r.group_name end as group_name,
    k.grouped_metric,
    k.value_stored,
    coalesce(v.value_recomputed, g.value_recomputed) as value_recomputed,
    coalesce(
        coalesce(k.metric_base, case when k.is_mean_of_groups then k.grouped_metric end)
        in ('accuracy', 'mean', 'stderr', 'std', 'var')
        and (coalesce(k.metric_base, k.grouped_metric) <> 'stderr' or k.stderr_as is not null),
        false
    ) as is_recomputed,
    k.scored_samples_stored,
    k.unscored_samples_stored,
    r.n_reduced as n_samples_scored,
    r.n_samples_attempted as n_samples_in_group,
    -- the clusters of the entry's own numbers: a stderr over the samples has each sample its own
    case when not k.is_stderr_per_sample then r.cluster_key end as cluster_key,
    case when k.is_stderr_per_sample then r.n_reduced else r.n_clusters_scored end as n_clusters_scored,
    r.n_epochs_unscored,
    coalesce(case when k.metric_base in ('accuracy', 'mean') then r.mean_errors_as_incorrect end, gi.errors_as_incorrect)
        as value_errors_as_incorrect,
    coalesce(case when k.metric_base in ('accuracy', 'mean') then r.mean_ci_low end, gi.mean_ci_low) as value_ci_low,
    coalesce(case when k.metric_base in ('accuracy', 'mean') then r.mean_ci_high end, gi.mean_ci_high) as value_ci_high,
    coalesce(case when k.metric_base in ('accuracy', 'mean') then r.errors_as_incorrect_ci_low end, gi.errors_as_incorrect_ci_low)
        as value_errors_as_incorrect_ci_low,
    coalesce(case when k.metric_base in ('accuracy', 'mean') then r.errors_as_incorrect_ci_high end, gi.errors_as_incorrect_ci_high)
        as value_errors_as_incorrect_ci_high,
    cast(case
        when k.metric_base in ('accuracy', 'mean')
            then {{ mean_ci_reason('r.mean_recomputed', 'r.mean_se', 'r.n_clusters_scored', 'r.is_unit_range') }}
        when k.is_mean_of_groups and k.grouped_metric in ('accuracy', 'mean') then gi.mean_ci_reason
        else 'not a mean: evalhouse gives an interval for accuracy and mean'
    end as {{ dbt.type_string() }}) as value_ci_reason,
    cast(case
        when
            (k.metric_base in ('accuracy', 'mean') and r.n_samples_not_rereduced > 0)
            or (k.is_mean_of_groups and k.grouped_metric in ('accuracy', 'mean') and gi.n_samples_not_rereduced > 0)
            then '{{ not_rereduced }}'
        when k.metric_base in ('accuracy', 'mean')
            then {{ mean_ci_reason('r.mean_errors_as_incorrect', 'r.errors_as_incorrect_se', 'r.n_clusters',
                                   'r.is_unit_range') }}
        when k.is_mean_of_groups and k.grouped_metric in ('accuracy', 'mean') then gi.errors_as_incorrect_ci_reason
        else 'not a mean: evalhouse gives an interval for accuracy and mean'
    end as {{ dbt.type_string() }}) as value_errors_as_incorrect_ci_reason,
    k.load_id
from entries as k
left join recomputed as r
    on
        {{ same_keys('k', 'r', ['source_file', 'score_name', 'scorer'], null_safe=['reducer']) }}
        and (
            (r.group_key is null and (coalesce(k.metric_group, '') <> 'grouped' or k.is_group_whole))
            or (
                k.metric_group = 'grouped' and not k.is_group_whole and k.group_key = r.group_key
                and k.entry_name = replace(coalesce(k.group_name_template, '{group_name}'), '{group_name}', r.group_name)
            )
        )
left join metric_values as v
    on
        {{ same_keys('r', 'v', ['source_file', 'score_name', 'scorer'], null_safe=['reducer', 'group_key', 'group_name']) }}
        and v.metric_base = case when k.metric_base = 'stderr' then k.stderr_as else k.metric_base end
left join group_means as g
    on
        k.is_mean_of_groups
        and {{ same_keys('k', 'g', ['source_file', 'score_name', 'scorer', 'group_key'], null_safe=['reducer']) }}
        and g.metric_base = case when k.grouped_metric = 'stderr' then k.stderr_as else k.grouped_metric end
left join mean_of_groups_intervals as gi
    on
        k.is_mean_of_groups and k.grouped_metric in ('accuracy', 'mean')
        and {{ same_keys('k', 'gi', ['source_file', 'score_name', 'scorer', 'group_key'], null_safe=['reducer']) }}
