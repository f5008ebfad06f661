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
    k.value_stored,
    case
        when k.metric_base in ('accuracy', 'mean') then r.mean_recomputed
        -- inspect_ai's stderr / std / var are 0 below two observations (clusters, for a clustered stderr)
        when k.metric_base = 'stderr' then coalesce(r.stderr_recomputed, case when r.n_reduced > 0 then 0.0 end)
        when k.metric_base = 'std' then coalesce(r.std_recomputed, case when r.n_reduced > 0 then 0.0 end)
        when k.metric_base = 'var' then coalesce(r.var_recomputed, case when r.n_reduced > 0 then 0.0 end)
    end as value_recomputed,
    coalesce(k.metric_base in ('accuracy', 'mean', 'stderr', 'std', 'var'), false) as is_recomputed,
    k.scored_samples_stored,
    k.unscored_samples_stored,
    r.n_reduced as n_samples_scored,
    r.n_samples_attempted as n_samples_in_group,
    r.cluster_key,
    r.n_clusters_scored,
    case when k.metric_base in ('accuracy', 'mean') then r.mean_errors_as_incorrect end as value_errors_as_incorrect,
    case when k.metric_base in ('accuracy', 'mean') then r.mean_ci_low end as value_ci_low,
    case when k.metric_base in ('accuracy', 'mean') then r.mean_ci_high end as value_ci_high,
    case when k.metric_base in ('accuracy', 'mean') then r.errors_as_incorrect_ci_low end as value_errors_as_incorrect_ci_low,
    case when k.metric_base in ('accuracy', 'mean') then r.errors_as_incorrect_ci_high end as value_errors_as_incorrect_ci_high,
    k.load_id
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
