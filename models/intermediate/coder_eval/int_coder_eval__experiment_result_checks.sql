-- One row per experiment.json VariantResult (one task x variant after folding): the stored
-- final_status / weighted_score next to the fold recomputed now from the replicate rows with
-- coder-eval's rule (worst status; mean of measured replicate scores, errored -> 0.0, ungraded
-- dropped). is_stale = the stored fold no longer matches the replicates (R24), e.g. after a
-- detached grade rewrote task.json but not experiment.json.
with results as (select * from {{ ref('stg_coder_eval__experiment_variant_results') }}),

folds as (select * from {{ ref('int_coder_eval__variant_task_folds') }})

select
    e.source_file,
    e.run_id,
    e.summary_position,
    e.result_position,
    e.variant_id,
    e.task_id,
    e.final_status as final_status_stored,
    f.folded_status as final_status_recomputed,
    e.weighted_score as weighted_score_stored,
    f.folded_score as weighted_score_recomputed,
    f.run_id is not null as has_replicates,
    case
        when
            f.run_id is not null
            and coalesce(e.final_status = f.folded_status, false)
            and coalesce({{ coder_eval_variant_same('e.weighted_score', 'f.folded_score') }}, false)
            then false
        else true
    end as is_stale
from results as e
left join folds as f
    on e.run_id = f.run_id and e.variant_id = f.variant_id and e.task_id = f.task_id
