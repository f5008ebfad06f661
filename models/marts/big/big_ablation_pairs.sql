{#-
  R07: with_brain and with_plan are architecture ablations. Each comparison is paired on
  (scenario_id, model, the other switch) within one kind: replicates are averaged per arm first,
  d = arm_on - arm_off per pair, then the mean of d with a cluster-robust SE over scenarios
  (contract: statistics conventions), its interval (in [-1, 1]), the number of pairs, the
  correlation of the arms (NULL below 3 pairs), the t(C-1) interval and MDD, the paired t-test
  p-value with Holm and BH adjustments within the family (ablation, kind). One row per
  (ablation, kind, model, other_switch_value).
  The cost effect is paired the same way on each run's best-known cost (fct_costs_repriced.cost_usd_best,
  never the logged cost): an arm's cost is known only when every run of it is (else the pair has no
  cost difference), and the difference is unbounded (t interval, not clipped).
-#}
with

scored_runs as (
    select * from {{ ref('fct_big_runs') }}
    where
        with_brain is not null
        and with_plan is not null
        and scenario_id is not null
        and model is not null
        and kind is not null
),

run_costs as (
    select
        c.unit_key,
        case when bool_and(c.cost_best_complete) then sum(c.cost_usd_best) end as cost_usd_best
    from {{ ref('fct_costs_repriced') }} as c
    where c.source_family = 'big'
    group by c.unit_key
),

runs as (
    select
        s.*,
        rc.cost_usd_best as cost
    from scored_runs as s
    left join run_costs as rc
        on s.run_key = rc.unit_key
),

-- one arm per (ablation switch, its value) and value of the other switch
arms as (
    {%- for switch, other in [('with_brain', 'with_plan'), ('with_plan', 'with_brain')] %}
        select
            '{{ switch }}' as ablation,
            kind,
            model,
            {{ other }} as other_switch_value,
            scenario_id,
            {{ switch }} as arm_on,
            avg(change) as change_arm,
            avg(regress) as regress_arm,
            case when count(cost) = count(*) then avg(cost) end as cost_arm,
            count(*) as n_runs,
            sum(change_assertions_total) as change_assertions_total,
            min(stamp) as first_stamp,
            max(stamp) as last_stamp
        from runs
        group by kind, model, {{ other }}, scenario_id, {{ switch }}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
),

pairs as (
    select
        arm_on.ablation,
        arm_on.kind,
        arm_on.model,
        arm_on.other_switch_value,
        arm_on.scenario_id,
        arm_on.change_arm as change_on,
        arm_off.change_arm as change_off,
        arm_on.change_arm - arm_off.change_arm as change_diff,
        arm_on.regress_arm as regress_on,
        arm_off.regress_arm as regress_off,
        arm_on.regress_arm - arm_off.regress_arm as regress_diff,
        arm_on.cost_arm as cost_on,
        arm_off.cost_arm as cost_off,
        arm_on.cost_arm - arm_off.cost_arm as cost_diff,
        arm_on.n_runs as n_runs_on,
        arm_off.n_runs as n_runs_off,
        coalesce(arm_on.change_assertions_total, 0) + coalesce(arm_off.change_assertions_total, 0)
            as change_assertions_total,
        {{ arm_stamps('arm_on', 'arm_off', '_on', '_off') }}
    from arms as arm_on
    inner join arms as arm_off
        on
            {{ same_keys('arm_on', 'arm_off', ['ablation', 'kind', 'model', 'other_switch_value', 'scenario_id']) }}
    where arm_on.arm_on and not arm_off.arm_on
),

clusters as (
    select
        ablation,
        kind,
        model,
        other_switch_value,
        scenario_id,
        sum(change_diff) as change_diff_sum,
        count(change_diff) as change_diff_n,
        sum(regress_diff) as regress_diff_sum,
        count(regress_diff) as regress_diff_n,
        sum(cost_diff) as cost_diff_sum,
        count(cost_diff) as cost_diff_n
    from pairs
    group by ablation, kind, model, other_switch_value, scenario_id
),

cluster_stats as (
    select
        cl.ablation,
        cl.kind,
        cl.model,
        cl.other_switch_value,
        {{ cluster_se('cl.change_diff_sum', 'cl.change_diff_n') }} as change_diff_se,
        {{ cluster_se('cl.regress_diff_sum', 'cl.regress_diff_n') }} as regress_diff_se,
        {{ cluster_se('cl.cost_diff_sum', 'cl.cost_diff_n') }} as cost_diff_se,
        count(case when cl.change_diff_n > 0 then 1 end) as n_change_clusters,
        count(case when cl.regress_diff_n > 0 then 1 end) as n_regress_clusters,
        count(case when cl.cost_diff_n > 0 then 1 end) as n_cost_clusters
    from clusters as cl
    group by cl.ablation, cl.kind, cl.model, cl.other_switch_value
),

pair_stats as (
    select
        ablation,
        kind,
        model,
        other_switch_value,
        count(*) as n_pairs,
        count(distinct scenario_id) as n_scenarios,
        count(change_diff) as n_change_pairs,
        count(regress_diff) as n_regress_pairs,
        count(cost_diff) as n_cost_pairs,
        sum(n_runs_on) as n_runs_on,
        sum(n_runs_off) as n_runs_off,
        sum(change_assertions_total) as change_assertions_total,
        avg(change_on) as change_mean_on,
        avg(change_off) as change_mean_off,
        avg(change_diff) as change_diff_mean,
        {{ arm_corr('change_on', 'change_off') }} as change_arm_corr,
        avg(regress_on) as regress_mean_on,
        avg(regress_off) as regress_mean_off,
        avg(regress_diff) as regress_diff_mean,
        {{ arm_corr('regress_on', 'regress_off') }} as regress_arm_corr,
        avg(case when cost_diff is not null then cost_on end) as cost_mean_on,
        avg(case when cost_diff is not null then cost_off end) as cost_mean_off,
        avg(cost_diff) as cost_diff_mean,
        {{ arm_corr('cost_on', 'cost_off') }} as cost_arm_corr,
        {{ arm_stamp_ranges(none, '_on', '_off') }}
    from pairs
    group by ablation, kind, model, other_switch_value
),

-- paired t-test per row (df = C - 1), then ranks within the multiplicity family: all rows of one
-- ablation switch and kind (every model and value of the other switch), per metric
tested as (
    select
        ps.*,
        cs.change_diff_se,
        cs.regress_diff_se,
        cs.cost_diff_se,
        cs.n_change_clusters,
        cs.n_regress_clusters,
        cs.n_cost_clusters,
        {%- for m in ['change', 'regress', 'cost'] %}
            {{ paired_t_p('ps.' ~ m ~ '_diff_mean', 'cs.' ~ m ~ '_diff_se', 'cs.n_' ~ m ~ '_clusters - 1') }} as {{ m }}_p_value,
        {%- endfor %}
        'big_ablation_pairs/' || ps.ablation || '/' || ps.kind as family
    from pair_stats as ps
    inner join cluster_stats as cs
        on
            {{ same_keys('ps', 'cs', ['ablation', 'kind', 'model', 'other_switch_value']) }}
),

ranked as (
    select
        t.*,
        {%- for m in ['change', 'regress', 'cost'] %}
            {{ p_rank_columns('t.' ~ m ~ '_p_value', 't.family', prefix=m ~ '_') }},
        {%- endfor %}
        count(*) over (partition by t.family) as family_size
    from tested as t
)

select
    cast(ps.ablation as {{ dbt.type_string() }}) as ablation,
    cast(ps.kind as {{ dbt.type_string() }}) as kind,
    cast(ps.model as {{ dbt.type_string() }}) as model,
    cast(case when ps.ablation = 'with_brain' then ps.other_switch_value end as boolean) as with_plan,
    cast(case when ps.ablation = 'with_plan' then ps.other_switch_value end as boolean) as with_brain,
    cast(ps.n_pairs as bigint) as n_pairs,
    cast(ps.n_scenarios as bigint) as n_scenarios,
    cast(ps.n_runs_on as bigint) as n_runs_on,
    cast(ps.n_runs_off as bigint) as n_runs_off,
    cast(ps.change_assertions_total as bigint) as change_assertions_total,
    cast(ps.family as {{ dbt.type_string() }}) as family,
    cast(ps.family_size as bigint) as family_size,
    {%- for m in ['change', 'regress', 'cost'] %}
        {%- set bound = none if m == 'cost' else 1 %}
        cast(ps.n_{{ m }}_pairs as bigint) as n_{{ m }}_pairs,
        cast(ps.n_{{ m }}_clusters as bigint) as n_{{ m }}_clusters,
        cast(ps.{{ m }}_mean_on as double) as {{ m }}_mean_on,
        cast(ps.{{ m }}_mean_off as double) as {{ m }}_mean_off,
        {{ paired_test_columns('ps', m ~ '_diff', 'ps.n_' ~ m ~ '_clusters', 'ps.n_' ~ m ~ '_pairs', test=m ~ '_',
                               family_size_name=m ~ '_family_size', lower=(-1 if bound else none), upper=bound) }},
    {%- endfor %}
    {{ arm_stamp_columns('ps', '_on', '_off') }}
from ranked as ps
