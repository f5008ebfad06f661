{#-
  Per (run, variant, result phase, criterion type): how many criterion results were evaluated, not evaluated,
  gating and informational, and the mean score over the EVALUATED results only: a not_evaluated result
  (score 0.0 in the file) is never averaged as a 0.0. Replicate grain (R21).
-#}
with results as (
    select * from {{ ref('stg_coder_eval__criterion_results') }}
),

replicates as (
    select
        run_dir,
        variant_id,
        task_id,
        replicate_index,
        started_at
    from {{ ref('fct_ce_replicates') }}
)

select
    r.run_id,
    r.run_dir,
    r.variant_id,
    r.result_phase,
    r.criterion_type,
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
        r.run_dir = p.run_dir
        and r.variant_id = p.variant_id
        and r.task_id = p.task_id
        and r.replicate_index is not distinct from p.replicate_index
group by r.run_id, r.run_dir, r.variant_id, r.result_phase, r.criterion_type
