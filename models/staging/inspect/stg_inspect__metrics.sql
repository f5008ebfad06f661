{#-
  One row per (log, score, reducer, metric) as the header's results store it: inspect_ai's own numbers. A score is
  a scorer's value or, for a scorer with a metric per key of a dict value, one key of it (score_name = the key).
  `cluster_key` is the sample-metadata key a clustered stderr declares (stderr(cluster=...), or the stderr a grouped
  metric applies: grouped(stderr(cluster=...), ...)). A grouped metric
  (inspect_ai's grouped(metric, group_key)) stores one entry per group and one for the whole: `metric_group` is
  'grouped' and the group_* columns carry its parameters as logged (NULL where the log leaves a default).
  `metric` is the entry's key in the log; `metric_name` its own name, which differs where inspect_ai made the key
  unique with a number (two grouped metrics on one scorer: `all` and `all2`). Only a header member has results: a
  start member (_journal/start.json) has none, so it adds no row.
-#}
with members as (select * from {{ ref('base_inspect__header_members') }}),

results as (
    select
        m.source_file,
        r.position as score_position,
        r.value as score_json,
        m.load_id
    from members as m
    {{ json_each('m.document', '$.results.scores', 'r') }}
)

select
    r.source_file,
    r.score_position,
    {{ json_text('r.score_json', '$.name') }} as score_name,
    {{ json_text('r.score_json', '$.scorer') }} as scorer,
    {{ json_text('r.score_json', '$.reducer') }} as reducer,
    {{ try_cast_text(json_text('r.score_json', '$.scored_samples'), 'integer') }} as scored_samples_stored,
    {{ try_cast_text(json_text('r.score_json', '$.unscored_samples'), 'integer') }} as unscored_samples_stored,
    mt.key as metric,
    {{ json_text('mt.value', '$.name') }} as metric_name,
    try_cast({{ json_text('mt.value', '$.value') }} as double) as value_stored,
    coalesce(
        {{ json_text('mt.value', '$.params.cluster') }},
        {{ json_text('mt.value', '$.params.metric.params.cluster') }}
    ) as cluster_key,
    {{ json_text('mt.value', '$.group') }} as metric_group,
    {{ json_text('mt.value', '$.params.metric.name') }} as grouped_metric,
    {{ json_text('mt.value', '$.params.group_key') }} as group_key,
    {{ json_text('mt.value', '$.params.all') }} as group_all,
    {{ json_text('mt.value', '$.params.all_label') }} as group_all_label,
    {{ json_text('mt.value', '$.params.name_template') }} as group_name_template,
    r.load_id
from results as r
{{ json_each_entry('r.score_json', '$.metrics', 'mt') }}
