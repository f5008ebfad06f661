{#-
  One row per (log, score, reducer, metric): inspect_ai's stored metric beside evalhouse's recomputation from the
  log's samples (they must agree: the `r28` test), the samples scored, errored and unscored, and the rate with
  errored samples counted as incorrect beside inspect's own (inspect leaves an errored, unscored sample out of
  the denominator: 100 samples, 10 errored, 72 correct reads 0.80, not 0.72). Never pooled across logs, scorers
  or reducers: each is part of the grain.
-#}
with stored as (
    select * from {{ ref('stg_inspect__metrics') }}
),

recomputed as (
    select * from {{ ref('int_inspect__metrics_recomputed') }}
),

logs as (
    select * from {{ ref('int_inspect__logs') }}
)

select
    s.source_file,
    l.status,
    l.task,
    l.model,
    s.score_name,
    s.scorer,
    s.reducer,
    s.metric,
    s.value_stored,
    case
        when s.metric in ('accuracy', 'mean') then r.mean_recomputed
        when s.metric = 'stderr' then r.stderr_recomputed
    end as value_recomputed,
    s.metric in ('accuracy', 'mean', 'stderr') as is_recomputed,
    s.scored_samples_stored,
    s.unscored_samples_stored,
    r.n_reduced as n_samples_scored,
    l.n_samples as n_samples_attempted,
    l.n_samples_errored,
    case when s.metric in ('accuracy', 'mean') then r.mean_errors_as_incorrect end as value_errors_as_incorrect,
    l.created_at,
    s.load_id
from stored as s
inner join logs as l on s.source_file = l.source_file
left join recomputed as r
    on
        s.source_file = r.source_file
        and s.scorer = r.scorer
        and s.reducer is not distinct from r.reducer
