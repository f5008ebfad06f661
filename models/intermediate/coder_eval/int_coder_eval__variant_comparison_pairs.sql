-- One row per (run, regime, variant pair, task) where BOTH variants have at least one graded
-- replicate of the task in the SAME system-prompt regime (R20): the pair unit of
-- coder_eval_variant_comparisons. Each arm's score is the mean over its graded replicates (errored ->
-- 0.0, ungraded left out, R17), i.e. replicates are averaged within (pair, arm) first; the
-- task-level pass is "every graded replicate passed" (worst-of folding). variant_a is the variant
-- listed first in experiment.json `variant_ids` (lexical order when unknown).
with folds as (select * from {{ ref('int_coder_eval__regime_task_folds') }}),

strata as (
    select
        f.run_id,
        f.variant_id,
        f.system_prompt_regime
    from folds as f
    group by f.run_id, f.variant_id, f.system_prompt_regime
    -- coder-eval's nothing_was_measured guard: such a stratum has no admissible score
    having not (sum(f.n_ungraded) > 0 and sum(f.n_measured) = 0)
),

variant_order as (
    select
        x.run_id,
        x.experiment_id,
        {{ json_text('vi.value', '$') }} as variant_id,
        vi.position as variant_position
    from {{ ref('stg_coder_eval__experiments') }} as x
    {{ json_each('x.variant_ids_json', '$', 'vi') }}
),

arms as (
    select
        f.run_id,
        f.system_prompt_regime,
        f.variant_id,
        f.task_id,
        f.folded_score as score,
        f.all_replicates_passed as passed,
        cast(f.n_succeeded as double) / f.n_graded as pass_fraction,
        f.first_started_at as first_stamp,
        f.last_started_at as last_stamp,
        o.variant_position
    from folds as f
    inner join strata as s
        on
            {{ same_keys('f', 's', ['run_id', 'variant_id'], null_safe=['system_prompt_regime']) }}
    left join variant_order as o
        on {{ same_keys('f', 'o', ['run_id', 'variant_id']) }}
    where f.n_graded > 0
)

select
    a.run_id,
    a.system_prompt_regime,
    a.variant_id as variant_a,
    b.variant_id as variant_b,
    a.task_id,
    a.score as score_a,
    b.score as score_b,
    b.score - a.score as score_difference,
    a.passed as passed_a,
    b.passed as passed_b,
    a.pass_fraction as pass_fraction_a,
    b.pass_fraction as pass_fraction_b,
    b.pass_fraction - a.pass_fraction as pass_fraction_difference,
    {{ arm_stamps('a', 'b') }}
from arms as a
inner join arms as b
    on
        {{ same_keys('a', 'b', ['run_id', 'task_id'], null_safe=['system_prompt_regime']) }}
        and (
            coalesce(a.variant_position, 1000000) < coalesce(b.variant_position, 1000000)
            or (
                coalesce(a.variant_position, 1000000) = coalesce(b.variant_position, 1000000)
                and a.variant_id < b.variant_id
            )
        )
