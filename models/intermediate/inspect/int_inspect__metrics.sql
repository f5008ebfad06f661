{#-
  One row per (log, score, reducer, metric) inspect_ai stored: its stored value beside evalhouse's recomputation
  from the log's reduced samples (accuracy, mean, stderr, std, var; NULL for other metrics) and the mean with errored,
  unscored samples counted 0. Read by inspect_metrics and by the R28 finding.
  An entry of a grouped metric (grouped(metric, group_key)) is recomputed as the metric it applies (`metric_base`)
  over its group's samples: the group whose name, put in the metric's name_template, is the entry's name; its
  whole (`all`, or its all_label) over every sample. A whole that is the mean of the group values
  (all="groups") is not recomputed.
-#}
with stored as (
    select * from {{ ref('stg_inspect__metrics') }}
),

recomputed as (
    select * from {{ ref('int_inspect__metrics_recomputed') }}
),

-- what each stored value is: the metric itself, or the metric a grouped metric applies, over which samples
kinds as (
    select
        s.*,
        (
            s.metric_group = 'grouped' and coalesce(s.group_all, 'samples') <> 'false'
            and s.metric = coalesce(s.group_all_label, 'all')
        ) as is_group_whole,
        case
            when coalesce(s.metric_group, '') <> 'grouped' then s.metric
            when
                s.metric = coalesce(s.group_all_label, 'all') and coalesce(s.group_all, 'samples') = 'groups'
                then null
            else replace(s.grouped_metric, 'inspect_ai/', '')
        end as metric_base
    from stored as s
),

matched as (
    select
        k.*,
        r.n_reduced,
        r.n_samples_attempted as n_samples_attempted_recomputed,
        r.n_clusters_scored,
        r.cluster_key as cluster_key_recomputed,
        r.group_name,
        r.mean_recomputed,
        r.stderr_recomputed,
        r.std_recomputed,
        r.var_recomputed,
        r.mean_errors_as_incorrect,
        r.mean_ci_low,
        r.mean_ci_high,
        r.errors_as_incorrect_ci_low,
        r.errors_as_incorrect_ci_high
    from kinds as k
    left join recomputed as r
        on
            {{ same_keys('k', 'r', ['source_file', 'score_name', 'scorer'], null_safe=['reducer']) }}
            and (
                (r.group_key is null and (coalesce(k.metric_group, '') <> 'grouped' or k.is_group_whole))
                or (
                    k.metric_group = 'grouped' and not k.is_group_whole and k.group_key = r.group_key
                    and k.metric = replace(coalesce(k.group_name_template, '{group_name}'), '{group_name}', r.group_name)
                )
            )
)

select
    m.source_file,
    m.score_position,
    m.score_name,
    m.scorer,
    m.reducer,
    m.metric,
    m.metric_base,
    case when m.metric_group = 'grouped' then m.group_key end as grouped_by,
    case when m.metric_group = 'grouped' and not m.is_group_whole then m.group_name end as group_name,
    m.value_stored,
    case
        when m.metric_base in ('accuracy', 'mean') then m.mean_recomputed
        -- inspect_ai's stderr / std / var are 0 below two observations (clusters, for a clustered stderr)
        when m.metric_base = 'stderr' then coalesce(m.stderr_recomputed, case when m.n_reduced > 0 then 0.0 end)
        when m.metric_base = 'std' then coalesce(m.std_recomputed, case when m.n_reduced > 0 then 0.0 end)
        when m.metric_base = 'var' then coalesce(m.var_recomputed, case when m.n_reduced > 0 then 0.0 end)
    end as value_recomputed,
    coalesce(m.metric_base in ('accuracy', 'mean', 'stderr', 'std', 'var'), false) as is_recomputed,
    m.scored_samples_stored,
    m.unscored_samples_stored,
    m.n_reduced as n_samples_scored,
    m.n_samples_attempted_recomputed as n_samples_in_group,
    m.cluster_key_recomputed as cluster_key,
    m.n_clusters_scored,
    case when m.metric_base in ('accuracy', 'mean') then m.mean_errors_as_incorrect end as value_errors_as_incorrect,
    case when m.metric_base in ('accuracy', 'mean') then m.mean_ci_low end as value_ci_low,
    case when m.metric_base in ('accuracy', 'mean') then m.mean_ci_high end as value_ci_high,
    case when m.metric_base in ('accuracy', 'mean') then m.errors_as_incorrect_ci_low end as value_errors_as_incorrect_ci_low,
    case when m.metric_base in ('accuracy', 'mean') then m.errors_as_incorrect_ci_high end as value_errors_as_incorrect_ci_high,
    m.load_id
from matched as m
