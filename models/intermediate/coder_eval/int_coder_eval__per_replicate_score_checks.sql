-- One row per (experiment.json, variant, task) of `per_replicate_scores`: the stored score list
-- compared, as a multiset, with the measured replicate scores recomputed now (coder-eval's
-- _measured_scores: ungraded replicates dropped, a None score on a graded replicate -> 0.0).
-- Only experiments whose document carries the key (old writers lack it). is_stale = R24.
with experiments as (
    select
        x.run_id,
        x.source_file
    from {{ ref('stg_coder_eval__experiments') }} as x
    where x.has_per_replicate_scores_key
),

stored as (
    select
        p.run_id,
        p.variant_id,
        p.task_id,
        p.score,
        row_number() over (partition by p.run_id, p.variant_id, p.task_id order by p.score) as score_rank
    from {{ ref('stg_coder_eval__per_replicate_scores') }} as p
),

recomputed as (
    select
        r.run_id,
        r.variant_id,
        r.task_id,
        r.score_for_average as score,
        row_number() over (partition by r.run_id, r.variant_id, r.task_id order by r.score_for_average) as score_rank
    from {{ ref('int_coder_eval__replicates') }} as r
    inner join experiments as x on r.run_id = x.run_id
    where r.is_graded
),

paired as (
    select
        coalesce(s.run_id, c.run_id) as run_id,
        coalesce(s.variant_id, c.variant_id) as variant_id,
        coalesce(s.task_id, c.task_id) as task_id,
        s.score as stored_score,
        c.score as recomputed_score
    from stored as s
    full outer join recomputed as c
        on
            {{ same_keys('s', 'c', ['run_id', 'variant_id', 'task_id', 'score_rank']) }}
)

select
    x.source_file,
    p.run_id,
    p.variant_id,
    p.task_id,
    sum(case when p.stored_score is not null then 1 else 0 end) as n_scores_stored,
    sum(case when p.recomputed_score is not null then 1 else 0 end) as n_scores_recomputed,
    sum(case when coalesce({{ coder_eval_variant_same('p.stored_score', 'p.recomputed_score') }}, false) then 0 else 1 end)
        as n_scores_differing,
    sum(case when coalesce({{ coder_eval_variant_same('p.stored_score', 'p.recomputed_score') }}, false) then 0 else 1 end) > 0
        as is_stale
from paired as p
inner join experiments as x on p.run_id = x.run_id
group by x.source_file, p.run_id, p.variant_id, p.task_id
