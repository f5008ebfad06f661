{#-
  One row per (log, score, reducer, metric): inspect_ai's stored metric beside evalhouse's recomputation from the
  log's samples (they must agree: R28), the samples scored, attempted and errored, and the rate with errored
  samples counted as incorrect beside inspect's own (inspect leaves an errored, unscored sample out of the
  denominator: 100 samples, 10 errored, 72 correct reads 0.80, not 0.72), each with its 95% interval with the
  sample as the cluster (epochs are replicates; int_inspect__metrics_recomputed). Never pooled across logs,
  statuses, scorers or reducers: each is part of the grain. An entry of a grouped metric (grouped(metric,
  group_key)) is one group of samples (group_name), or their whole: its numbers, counts and interval are that
  group's; n_samples_errored stays the log's.
-#}
with metrics as (select * from {{ ref('int_inspect__metrics') }}),

logs as (select * from {{ ref('int_inspect__logs') }})


select
    m.source_file,
    l.status,
    l.task,
    l.model_normalised as model,
    l.model as model_raw,
    m.score_name,
    m.scorer,
    m.reducer,
    m.metric,
    m.metric_base,
    m.grouped_by,
    m.group_name,
    m.value_stored,
    m.value_recomputed,
    m.is_recomputed,
    m.scored_samples_stored,
    m.unscored_samples_stored,
    m.n_samples_scored,
    case when m.group_name is not null then m.n_samples_in_group else l.n_samples end as n_samples_attempted,
    m.cluster_key,
    m.n_clusters_scored,
    l.n_samples_errored,
    m.n_epochs_unscored,
    m.value_errors_as_incorrect,
    m.value_ci_low,
    m.value_ci_high,
    m.value_ci_reason,
    m.value_errors_as_incorrect_ci_low,
    m.value_errors_as_incorrect_ci_high,
    m.value_errors_as_incorrect_ci_reason,
    l.created_at,
    m.load_id
from metrics as m
inner join logs as l on m.source_file = l.source_file
