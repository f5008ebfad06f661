{#-
  Model vs model, paired on the scenarios both models ran, within one (kind, with_brain, with_plan):
  replicates averaged per (scenario, model) first, d = model_b - model_a per scenario (model_a sorts
  first), then the mean of d with its standard error over scenarios (one pair per scenario), the t(C-1)
  interval, MDD, the paired t-test p-value, and Holm / BH adjustments within the family of all model
  pairs of one kind. change and regress are compared separately (R02). One row per
  (kind, with_brain, with_plan, model_a, model_b).
-#}
{%- set metrics = ['change', 'regress'] %}
{#- the configuration both models ran in #}
{%- set configuration = ['kind', 'with_brain', 'with_plan'] %}

with

runs as (
    select * from {{ ref('fct_big_runs') }}
    where
        with_brain is not null
        and with_plan is not null
        and scenario_id is not null
        and model is not null
        and kind is not null
),

arms as (
    select
        {{ qualified(none, configuration) }},
        model,
        scenario_id,
        {%- for m in metrics %}
            avg({{ m }}) as {{ m }}_arm,
        {%- endfor %}
        count(*) as n_runs,
        sum(change_assertions_total) as change_assertions_total,
        min(stamp) as first_stamp,
        max(stamp) as last_stamp
    from runs
    group by {{ qualified(none, configuration) }}, model, scenario_id
),

pairs as (
    select
        {{ qualified('a', configuration) }},
        a.model as model_a,
        b.model as model_b,
        a.scenario_id,
        {%- for m in metrics %}
            a.{{ m }}_arm as {{ m }}_a,
            b.{{ m }}_arm as {{ m }}_b,
            b.{{ m }}_arm - a.{{ m }}_arm as {{ m }}_diff,
        {%- endfor %}
        a.n_runs as n_runs_a,
        b.n_runs as n_runs_b,
        coalesce(a.change_assertions_total, 0) + coalesce(b.change_assertions_total, 0) as change_assertions_total,
        {{ arm_stamps('a', 'b') }}
    from arms as a
    inner join arms as b
        on
            {{ same_keys('a', 'b', configuration + ['scenario_id']) }}
            and a.model < b.model
),

compared as (
    select
        {{ qualified(none, configuration) }},
        model_a,
        model_b,
        count(*) as n_pairs,
        sum(n_runs_a) as n_runs_a,
        sum(n_runs_b) as n_runs_b,
        sum(change_assertions_total) as change_assertions_total,
        {%- for m in metrics %}
            count({{ m }}_diff) as n_{{ m }}_pairs,
            avg(case when {{ m }}_diff is not null then {{ m }}_a end) as {{ m }}_mean_a,
            avg(case when {{ m }}_diff is not null then {{ m }}_b end) as {{ m }}_mean_b,
            avg({{ m }}_diff) as {{ m }}_diff_mean,
            {{ cluster_se(m ~ '_diff', '1') }} as {{ m }}_diff_se,
            {{ arm_corr(m ~ '_a', m ~ '_b') }} as {{ m }}_arm_corr,
        {%- endfor %}
        {{ arm_stamp_ranges(none) }}
    from pairs
    group by {{ qualified(none, configuration) }}, model_a, model_b
),

tested as (
    select
        c.*,
        {%- for m in metrics %}
            {{ paired_t_p('c.' ~ m ~ '_diff_mean', 'c.' ~ m ~ '_diff_se', 'c.n_' ~ m ~ '_pairs - 1') }} as {{ m }}_p_value,
        {%- endfor %}
        'big_model_pairs/' || c.kind as family
    from compared as c
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
    cast(r.kind as {{ dbt.type_string() }}) as kind,
    cast(r.with_brain as boolean) as with_brain,
    cast(r.with_plan as boolean) as with_plan,
    cast(r.model_a as {{ dbt.type_string() }}) as model_a,
    cast(r.model_b as {{ dbt.type_string() }}) as model_b,
    cast(r.n_pairs as bigint) as n_pairs,
    cast(r.n_runs_a as bigint) as n_runs_a,
    cast(r.n_runs_b as bigint) as n_runs_b,
    cast(r.change_assertions_total as bigint) as change_assertions_total,
    cast(r.family as {{ dbt.type_string() }}) as family,
    cast(r.family_size as bigint) as family_size,
    {%- for m in metrics %}
        cast(r.n_{{ m }}_pairs as bigint) as n_{{ m }}_pairs,
        cast(r.{{ m }}_mean_a as double) as {{ m }}_mean_a,
        cast(r.{{ m }}_mean_b as double) as {{ m }}_mean_b,
        {{ paired_test_columns('r', m ~ '_diff', 'r.n_' ~ m ~ '_pairs', 'r.n_' ~ m ~ '_pairs', test=m ~ '_',
                               family_size_name=m ~ '_family_size') }},
    {%- endfor %}
    {{ arm_stamp_columns('r') }}
from ranked as r
