{#-
  Per (run, variant, result phase, criterion type): how many criterion results were evaluated, not evaluated,
  gating and informational, and the mean score over the EVALUATED results only: a not_evaluated result
  (score 0.0 in the file) is never averaged as a 0.0. Replicate grain (R21).
  R25: a task's replicates (and its several results of one criterion type) are not independent, so
  each mean carries a cluster-robust standard error with the TASK as the cluster (one cluster per
  task_id of the stratum: sum and count of its evaluated scores), and the 95% interval of the statistics
  conventions on [0, 1] (scores live in [0, 1]; a mean outside it, from a malformed score, widens the clip so
  the interval still contains it); when every evaluated score is 0 or 1 (a pass/fail criterion) the mean is a
  clustered binary rate and takes the rate's interval.
-#}
{%- set stratum = ['run_id', 'run_dir', 'variant_id', 'result_phase', 'criterion_type'] %}

with replicates as (
    select
        run_dir,
        variant_id,
        task_id,
        replicate_index,
        started_at
    from {{ ref('int_coder_eval__replicates') }}
),

-- the results of the run's replicates: a task.json its run.json does not list is no replicate of it (R38)
results as (
    select r.*
    from {{ ref('stg_coder_eval__criterion_results') }} as r
    where exists (
            select 1
            from replicates as p
            where
                {{ coder_eval_same_replicate('r', 'p') }}
        )
),

-- one row per (stratum, task) = one cluster of the clustered SEs
task_clusters as (
    select
        {{ qualified('r', stratum) }},
        r.task_id,
        sum(r.score) filter (where r.evaluation_status = 'evaluated') as score_sum,
        count(r.score) filter (where r.evaluation_status = 'evaluated') as score_n,
        sum(r.score) filter (where r.evaluation_status = 'evaluated' and r.gating) as score_gating_sum,
        count(r.score) filter (where r.evaluation_status = 'evaluated' and r.gating) as score_gating_n,
        count(r.score) filter (where r.evaluation_status = 'evaluated' and r.score not in (0, 1)) as score_nonbinary,
        count(r.score) filter (where r.evaluation_status = 'evaluated' and r.gating and r.score not in (0, 1))
            as score_gating_nonbinary
    from results as r
    group by {{ qualified('r', stratum) }}, r.task_id
),

clustered as (
    select
        {{ qualified('c', stratum) }},
        count(*) filter (where c.score_n > 0) as n_score_clusters,
        count(*) filter (where c.score_gating_n > 0) as n_score_gating_clusters,
        sum(c.score_gating_n) as n_evaluated_gating,
        {{ cluster_se('c.score_sum', 'c.score_n') }} as score_se,
        {{ cluster_se('c.score_gating_sum', 'c.score_gating_n') }} as score_gating_se,
        sum(c.score_nonbinary) as n_score_nonbinary,
        sum(c.score_gating_nonbinary) as n_score_gating_nonbinary
    from task_clusters as c
    group by {{ qualified('c', stratum) }}
),

stats as (
    select
        {{ qualified('r', stratum) }},
        min(r.result_kind) as result_kind,
        count(*) as n_results,
        count(distinct r.task_id) as n_tasks,
        count(*) filter (where r.evaluation_status = 'evaluated') as n_evaluated,
        count(*) filter (where r.evaluation_status = 'not_evaluated') as n_not_evaluated,
        count(*) filter (where r.gating) as n_gating,
        count(*) filter (where not r.gating) as n_informational,
        count(*) filter (where r.is_gating_defaulted) as n_gating_defaulted,
        count(*) filter (where r.is_result_kind_inferred) as n_result_kind_inferred,
        count(*) filter (where r.evaluation_status = 'evaluated' and r.error is not null) as n_errored,
        count(*) filter (where r.evaluation_status = 'evaluated' and r.score >= r.pass_threshold) as n_passed,
        avg(r.score) filter (where r.evaluation_status = 'evaluated') as mean_score,
        avg(r.score) filter (where r.evaluation_status = 'evaluated' and r.gating) as mean_score_gating,
        min(p.started_at) as first_started_at,
        max(p.started_at) as last_started_at
    from results as r
    left join replicates as p
        on
            {{ coder_eval_same_replicate('r', 'p') }}
    group by {{ qualified('r', stratum) }}
)

select
    {{ qualified('s', stratum) }},
    s.result_kind,
    s.n_results,
    s.n_tasks,
    s.n_evaluated,
    s.n_not_evaluated,
    s.n_gating,
    s.n_informational,
    s.n_gating_defaulted,
    s.n_result_kind_inferred,
    s.n_errored,
    s.n_passed,
    s.mean_score,
    {{ mean_interval_columns('s.mean_score', 'c.score_se', 'score', 'c.n_score_clusters', 's.n_evaluated', widen_to_mean=true,
                             binary='c.n_score_nonbinary = 0') }},
    coalesce(c.n_score_clusters, 0) as n_score_clusters,
    cast(coalesce(c.n_evaluated_gating, 0) as bigint) as n_evaluated_gating,
    s.mean_score_gating,
    {{ mean_interval_columns('s.mean_score_gating', 'c.score_gating_se', 'score_gating', 'c.n_score_gating_clusters',
                             'c.n_evaluated_gating', widen_to_mean=true, binary='c.n_score_gating_nonbinary = 0') }},
    coalesce(c.n_score_gating_clusters, 0) as n_score_gating_clusters,
    s.first_started_at,
    s.last_started_at
from stats as s
left join clustered as c
    on
        {{ same_keys('s', 'c', [], null_safe=stratum) }}
