-- One row per (experiment run, system-prompt regime, variant pair): paired A/B comparison over
-- the tasks both variants ran in that regime (R20: never across regimes). Pair = task = cluster;
-- the difference is variant_b - variant_a of the per-arm mean replicate score, with its t(C-1)
-- interval, paired t-test p-value and MDD; the same for the per-task replicate pass fraction.
-- McNemar's exact test is on TASK-level pass/fail (every graded replicate passed): tasks are the
-- independent units; replicate indices are not paired across variants. p-values are adjusted
-- (Holm, BH) within the family of all variant pairs of one experiment run.
{%- set comparison = ['run_id', 'system_prompt_regime', 'variant_a', 'variant_b'] %}

with pairs as (select * from {{ ref('int_coder_eval__variant_comparison_pairs') }}),

experiments as (
    select
        x.run_id,
        x.experiment_id
    from {{ ref('stg_coder_eval__experiments') }} as x
),

compared as (
    select
        {{ qualified('p', comparison) }},
        count(*) as n_pairs,
        avg(p.score_a) as mean_score_a,
        avg(p.score_b) as mean_score_b,
        avg(p.score_difference) as mean_difference,
        {{ cluster_se('p.score_difference', '1') }} as difference_se,
        {{ arm_corr('p.score_a', 'p.score_b') }} as arms_correlation,
        avg(p.pass_fraction_a) as pass_fraction_mean_a,
        avg(p.pass_fraction_b) as pass_fraction_mean_b,
        avg(p.pass_fraction_difference) as pass_fraction_diff_mean,
        {{ cluster_se('p.pass_fraction_difference', '1') }} as pass_fraction_diff_se,
        sum(case when p.passed_a and p.passed_b then 1 else 0 end) as n_both_passed,
        sum(case when not p.passed_a and not p.passed_b then 1 else 0 end) as n_both_failed,
        sum(case when p.passed_a and not p.passed_b then 1 else 0 end) as n_only_a_passed,
        sum(case when not p.passed_a and p.passed_b then 1 else 0 end) as n_only_b_passed,
        {{ arm_stamp_ranges('p') }}
    from pairs as p
    group by {{ qualified('p', comparison) }}
),

tested as (
    select
        c.*,
        'coder_eval_variant_comparisons/' || c.run_id as family,
        {{ paired_t_p('c.mean_difference', 'c.difference_se', 'c.n_pairs - 1') }} as p_value,
        {{ paired_t_p('c.pass_fraction_diff_mean', 'c.pass_fraction_diff_se', 'c.n_pairs - 1') }} as pass_fraction_p_value,
        {{ mcnemar_exact_p('c.n_only_a_passed', 'c.n_only_b_passed') }} as mcnemar_p
    from compared as c
),

ranked as (
    select
        t.*,
        count(*) over (partition by t.family) as family_size,
        {{ p_rank_columns('t.p_value', 't.family') }},
        {{ p_rank_columns('t.pass_fraction_p_value', 't.family', prefix='pass_fraction_') }},
        {{ p_rank_columns('t.mcnemar_p', 't.family', prefix='mcnemar_') }}
    from tested as t
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
    {{ paired_difference_columns('difference', 'c.mean_difference', 'c.difference_se', 'c.n_pairs', 'c.n_pairs',
                                 mdd_name='min_detectable_difference') }},
    c.arms_correlation,
    cast(c.family as {{ dbt.type_string() }}) as family,
    cast(c.family_size as bigint) as family_size,
    c.p_value,
    cast(c.p_family_size as bigint) as p_family_size,
    {{ p_adjusted_columns('c.p_value', 'c.p_rank', 'c.p_family_size', 'c.family') }},
    c.pass_fraction_mean_a,
    c.pass_fraction_mean_b,
    {{ paired_test_columns('c', 'pass_fraction_diff', 'c.n_pairs', 'c.n_pairs', test='pass_fraction_',
                           family_size_name='pass_fraction_family_size', arm_corr=false) }},
    {%- for n in ['n_both_passed', 'n_both_failed', 'n_only_a_passed', 'n_only_b_passed'] %}
        cast(c.{{ n }} as bigint) as {{ n }},
    {%- endfor %}
    c.mcnemar_p,
    c.mcnemar_p as all_replicates_pass_mcnemar_p,
    {{ p_holm('c.mcnemar_p', 'c.mcnemar_p_rank', 'c.mcnemar_p_family_size', ['c.family']) }} as all_replicates_pass_mcnemar_p_holm,
    {{ arm_stamp_columns('c') }}
from ranked as c
left join experiments as x
    on c.run_id = x.run_id
