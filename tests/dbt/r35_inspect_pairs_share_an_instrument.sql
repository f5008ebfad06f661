{#-
  R35 (what evalhouse computes): an inspect_ai model comparison pairs two logs measured with the same instrument:
  the same task version, the scorer with the same arguments and calling the same models while it scored (its
  grader), and the same number of epochs unless the reducer is the mean or pass_at_k (whose estimand does not depend
  on it), on samples whose targets agree id for id. Each row is a compared pair whose logs differ in one of these.
-#}
with pairs as (select * from {{ ref('inspect_model_pairs') }}),

logs as (select * from {{ ref('int_inspect__logs') }}),

scorers as (select * from {{ ref('int_inspect__scorer_instruments') }}),

executions as (select * from {{ ref('int_inspect__sample_executions') }}),

-- compared pairs of logs with a sample of one id whose targets differ
edited as (
    select distinct
        p.source_file_a,
        p.source_file_b
    from pairs as p
    inner join executions as a on p.source_file_a = a.source_file
    inner join executions as b on p.source_file_b = b.source_file and a.sample_id = b.sample_id
    where a.target is distinct from b.target
)

select
    p.task,
    p.scorer,
    p.reducer,
    p.source_file_a,
    p.source_file_b,
    la.task_version as task_version_a,
    lb.task_version as task_version_b,
    la.epochs as epochs_a,
    lb.epochs as epochs_b,
    sa.scorer_options_json as scorer_options_a,
    sb.scorer_options_json as scorer_options_b,
    sa.scorer_models as scorer_models_a,
    sb.scorer_models as scorer_models_b,
    t.source_file_a is not null as has_edited_samples
from pairs as p
left join logs as la on p.source_file_a = la.source_file
left join logs as lb on p.source_file_b = lb.source_file
left join scorers as sa on p.source_file_a = sa.source_file and p.scorer = sa.scorer
left join scorers as sb on p.source_file_b = sb.source_file and p.scorer = sb.scorer
left join edited as t on p.source_file_a = t.source_file_a and p.source_file_b = t.source_file_b
where
    t.source_file_a is not null
    or la.task_version is distinct from lb.task_version
    or sa.scorer_options_json is distinct from sb.scorer_options_json
    or sa.scorer_models is distinct from sb.scorer_models
    or (
        la.epochs is distinct from lb.epochs
        and p.reducer is distinct from 'mean'
        and coalesce(substr(p.reducer, 1, 8), '') <> 'pass_at_'
    )
