-- One row per (experiment run, system-prompt regime, variant pair): paired A/B comparison over
-- the tasks both variants ran in that regime (R20: never across regimes). Pair = task; the
-- difference is variant_b - variant_a of the per-arm mean replicate score; cluster-robust SE over
-- tasks (one pair per task, so it is the usual paired SE with the C/(C-1) correction). McNemar's
-- exact test is on TASK-level pass/fail (every graded replicate passed): tasks are the
-- independent units; replicate indices are not paired across variants, so replicate-level
-- pairing would be arbitrary and would treat correlated replicates as independent pairs.
with pairs as (
    select * from {{ ref('int_ce_v__comparison_pairs') }}
),

experiments as (
    select
        x.run_id,
        x.experiment_id
    from {{ ref('stg_coder_eval__experiments') }} as x
),

compared as (
    select
        p.run_id,
        p.system_prompt_regime,
        p.variant_a,
        p.variant_b,
        count(*) as n_pairs,
        avg(p.score_a) as mean_score_a,
        avg(p.score_b) as mean_score_b,
        avg(p.score_difference) as mean_difference,
        {{ cluster_se('p.score_difference', '1') }} as difference_se,
        {{ corr('p.score_a', 'p.score_b') }} as arms_correlation,
        sum(case when p.passed_a and p.passed_b then 1 else 0 end) as n_both_passed,
        sum(case when not p.passed_a and not p.passed_b then 1 else 0 end) as n_both_failed,
        sum(case when p.passed_a and not p.passed_b then 1 else 0 end) as n_only_a_passed,
        sum(case when not p.passed_a and p.passed_b then 1 else 0 end) as n_only_b_passed,
        min(p.first_started_at) as first_started_at,
        max(p.last_started_at) as last_started_at
    from pairs as p
    group by p.run_id, p.system_prompt_regime, p.variant_a, p.variant_b
)

select
    c.run_id,
    x.experiment_id,
    c.system_prompt_regime,
    c.variant_a,
    c.variant_b,
    cast(c.n_pairs as bigint) as n_pairs,
    c.mean_score_a,
    c.mean_score_b,
    c.mean_difference,
    c.difference_se,
    {{ mean_ci_low('c.mean_difference', 'c.difference_se', lower=-1, upper=1) }} as difference_ci_low,
    {{ mean_ci_high('c.mean_difference', 'c.difference_se', lower=-1, upper=1) }} as difference_ci_high,
    {{ min_detectable_difference('c.difference_se') }} as min_detectable_difference,
    c.arms_correlation,
    cast(c.n_both_passed as bigint) as n_both_passed,
    cast(c.n_both_failed as bigint) as n_both_failed,
    cast(c.n_only_a_passed as bigint) as n_only_a_passed,
    cast(c.n_only_b_passed as bigint) as n_only_b_passed,
    {{ mcnemar_exact_p('c.n_only_a_passed', 'c.n_only_b_passed') }} as mcnemar_p,
    c.first_started_at as first_stamp,
    c.last_started_at as last_stamp
from compared as c
left join experiments as x
    on c.run_id = x.run_id
