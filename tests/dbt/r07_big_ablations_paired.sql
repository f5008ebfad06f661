-- R07: with_brain / with_plan comparisons are paired on (scenario id, model, the other switch)
-- within one kind: big_ablation_pairs must equal an independent recomputation of the pairs from
-- fct_big_runs (replicates averaged per arm, difference per pair): same set of rows, same
-- n_pairs and the same mean paired differences (1e-9).
with

runs as (
    select * from {{ ref('fct_big_runs') }}
    where
        with_brain is not null and with_plan is not null
        and scenario_id is not null and model is not null and kind is not null
),

arms as (
    select
        'with_brain' as ablation,
        kind,
        model,
        with_plan as fixed_switch,
        scenario_id,
        with_brain as arm,
        avg(change) as change_arm,
        avg(regress) as regress_arm
    from runs
    group by kind, model, with_plan, scenario_id, with_brain
    union all
    select
        'with_plan' as ablation,
        kind,
        model,
        with_brain as fixed_switch,
        scenario_id,
        with_plan as arm,
        avg(change) as change_arm,
        avg(regress) as regress_arm
    from runs
    group by kind, model, with_brain, scenario_id, with_plan
),

expected as (
    select
        a_on.ablation,
        a_on.kind,
        a_on.model,
        a_on.fixed_switch,
        count(*) as n_pairs,
        avg(a_on.change_arm - a_off.change_arm) as change_diff_mean,
        avg(a_on.regress_arm - a_off.regress_arm) as regress_diff_mean
    from arms as a_on
    inner join arms as a_off
        on
            {{ same_keys('a_on', 'a_off', ['ablation', 'kind', 'model', 'fixed_switch', 'scenario_id']) }}
            and a_on.arm
            and not a_off.arm
    group by a_on.ablation, a_on.kind, a_on.model, a_on.fixed_switch
),

actual as (
    select
        ablation,
        kind,
        model,
        case when ablation = 'with_brain' then with_plan else with_brain end as fixed_switch,
        n_pairs,
        change_diff_mean,
        regress_diff_mean
    from {{ ref('big_ablation_pairs') }}
)

select
    coalesce(actual.ablation, expected.ablation) as ablation,
    coalesce(actual.kind, expected.kind) as kind,
    coalesce(actual.model, expected.model) as model,
    coalesce(actual.fixed_switch, expected.fixed_switch) as fixed_switch,
    actual.n_pairs as n_pairs_stored,
    expected.n_pairs as n_pairs_recomputed,
    actual.change_diff_mean as change_diff_stored,
    expected.change_diff_mean as change_diff_recomputed
from actual
full outer join expected
    on
        {{ same_keys('actual', 'expected', ['ablation', 'kind', 'model', 'fixed_switch']) }}
where
    actual.ablation is null
    or expected.ablation is null
    or actual.n_pairs <> expected.n_pairs
    or abs(coalesce(actual.change_diff_mean, 9) - coalesce(expected.change_diff_mean, 9)) > 1e-9
    or abs(coalesce(actual.regress_diff_mean, 9) - coalesce(expected.regress_diff_mean, 9)) > 1e-9
