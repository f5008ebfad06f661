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
{%- set metrics = ['change', 'regress', 'cost'] %}
{#- one comparison: an ablation switch, within one kind, model and value of the other switch #}
{%- set comparison = ['ablation', 'kind', 'model', 'other_switch_value'] %}

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
        {%- for m in metrics %}
            arm_on.{{ m }}_arm as {{ m }}_on,
            arm_off.{{ m }}_arm as {{ m }}_off,
            arm_on.{{ m }}_arm - arm_off.{{ m }}_arm as {{ m }}_diff,
        {%- endfor %}
        arm_on.n_runs as n_runs_on,
        arm_off.n_runs as n_runs_off,
        coalesce(arm_on.change_assertions_total, 0) + coalesce(arm_off.change_assertions_total, 0)
            as change_assertions_total,
        {{ arm_stamps('arm_on', 'arm_off', '_on', '_off') }}
    from arms as arm_on
    inner join arms as arm_off
        on
            {{ same_keys('arm_on', 'arm_off', comparison + ['scenario_id']) }}
    where arm_on.arm_on and not arm_off.arm_on
),

clusters as (
    select
        {{ qualified(none, comparison) }},
        scenario_id,
        {%- for m in metrics %}
            sum({{ m }}_diff) as {{ m }}_diff_sum,
            count({{ m }}_diff) as {{ m }}_diff_n{% if not loop.last %},{% endif %}
        {%- endfor %}
    from pairs
    group by {{ qualified(none, comparison) }}, scenario_id
),

cluster_stats as (
    select
        {{ qualified('cl', comparison) }},
        {%- for m in metrics %}
            {{ cluster_se('cl.' ~ m ~ '_diff_sum', 'cl.' ~ m ~ '_diff_n') }} as {{ m }}_diff_se,
            count(case when cl.{{ m }}_diff_n > 0 then 1 end) as n_{{ m }}_clusters{% if not loop.last %},{% endif %}
        {%- endfor %}
    from clusters as cl
    group by {{ qualified('cl', comparison) }}
),

pair_stats as (
    select
        {{ qualified(none, comparison) }},
        count(*) as n_pairs,
        count(distinct scenario_id) as n_scenarios,
        {%- for m in metrics %}
            count({{ m }}_diff) as n_{{ m }}_pairs,
        {%- endfor %}
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
    group by {{ qualified(none, comparison) }}
),

-- paired t-test per row (df = C - 1), then ranks within the multiplicity family: all rows of one
-- ablation switch and kind (every model and value of the other switch), per metric
tested as (
    select
        ps.*,
        {%- for m in metrics %}
            cs.{{ m }}_diff_se,
            cs.n_{{ m }}_clusters,
            {{ paired_t_p('ps.' ~ m ~ '_diff_mean', 'cs.' ~ m ~ '_diff_se', 'cs.n_' ~ m ~ '_clusters - 1') }} as {{ m }}_p_value,
        {%- endfor %}
        'big_ablation_pairs/' || ps.ablation || '/' || ps.kind as family
    from pair_stats as ps
    inner join cluster_stats as cs
        on
            {{ same_keys('ps', 'cs', comparison) }}
),

ranked as (
    select
        t.*,
        {%- for m in metrics %}
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
    {%- for m in metrics %}
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
