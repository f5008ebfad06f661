{#-
  One row per (kind, model, with_brain, with_plan) over every run of int_big__runs: the body of big_rates
  (fix, refactor) and big_awareness_rates (awareness), which select their kinds from here. `model` is the
  normalised id (model_aliases), so a model logged under two routes (openrouter/deepseek-v4-flash,
  deepseek-v4-flash) is one stratum; model_raw_spellings lists the logged spellings pooled
  (fct_big_runs.model_raw splits them). Means of change / regress with a cluster-robust (by scenario_id)
  95% interval with a t(C-1) critical value (contract: statistics conventions; the clustered rate's interval
  when every run's share is 0 or 1, i.e. one assertion each, and for change whenever every run's change is the
  pass share of its change_detail assertions within the log's rounding, as R04 checks: then the interval is the
  clustered rate's over the measured runs' assertions; 2026-12-06), the assertion count next to
  the change mean (R01), done-but-broke counts (R06) and the stamp range (R12). Kinds are never pooled:
  kind is part of the grain (R03).
-#}
{%- set stratum = ['kind', 'model', 'with_brain', 'with_plan'] %}
{%- set metrics = ['change', 'regress'] %}

with

runs as (select * from {{ ref('int_big__runs') }}),

clusters as (
    select
        {{ qualified(none, stratum) }},
        scenario_id,
        count(*) as n_runs,
        {%- for m in metrics %}
            sum({{ m }}) as {{ m }}_sum,
            count({{ m }}) as {{ m }}_n,
            count(case when {{ m }} not in (0, 1) then 1 end) as {{ m }}_nonbinary,
        {%- endfor %}
        sum(change_assertions_total) as change_assertions_total,
        max(change_assertions_total) as change_assertions_per_run,
        -- change as a share of binary items: the runs whose change is the pass share of their assertions
        -- within the log's rounding (R04's test, int_dq__big_r04_change_vs_detail)
        sum(case when change is not null then change_assertions_total end) as change_items,
        count(case when abs(change - assertion_pass_share) <= 0.005 then 1 end) as change_itemised,
        count(case when done_but_broke then 1 end) as n_done_but_broke,
        count(case when stamp_is_naive then 1 end) as n_naive_stamps,
        min(stamp) as first_stamp,
        max(stamp) as last_stamp
    from runs
    group by {{ qualified(none, stratum) }}, scenario_id
),

strata as (
    select
        {{ qualified(none, stratum) }},
        sum(n_runs) as n_runs,
        count(scenario_id) as n_scenarios,
        sum(change_assertions_total) as change_assertions_total,
        sum(change_assertions_per_run) as n_change_assertions_distinct,
        {%- for m in metrics %}
            sum({{ m }}_n) as n_{{ m }}_measured,
            sum({{ m }}_sum) / nullif(sum({{ m }}_n), 0) as {{ m }}_mean,
            {{ cluster_se(m ~ '_sum', m ~ '_n') }} as {{ m }}_se,
            count(case when {{ m }}_n > 0 then 1 end) as n_{{ m }}_clusters,
            sum({{ m }}_nonbinary) as n_{{ m }}_nonbinary,
        {%- endfor %}
        sum(change_items) as n_change_items,
        sum(change_itemised) as n_change_itemised,
        sum(n_done_but_broke) as n_done_but_broke,
        sum(n_naive_stamps) as n_naive_stamps,
        min(first_stamp) as first_stamp,
        max(last_stamp) as last_stamp
    from clusters
    group by {{ qualified(none, stratum) }}
),

-- the logged spellings (routes) pooled under one normalised model id
run_spellings as (
    select distinct
        {{ qualified(none, stratum) }},
        model_raw
    from runs
),

spellings as (
    select
        {{ qualified(none, stratum) }},
        count(model_raw) as n_model_spellings,
        {{ ordered_string_agg('model_raw', ', ', 'model_raw') }} as model_raw_spellings
    from run_spellings
    group by {{ qualified(none, stratum) }}
),

strata_spelled as (
    select
        st.*,
        sp.model_raw_spellings,
        sp.n_model_spellings
    from strata as st
    left join spellings as sp
        on
            {{ same_keys('st', 'sp', ['kind'], null_safe=['model', 'with_brain', 'with_plan']) }}
)

select
    cast(kind as {{ dbt.type_string() }}) as kind,
    cast(model as {{ dbt.type_string() }}) as model,
    cast(with_brain as boolean) as with_brain,
    cast(with_plan as boolean) as with_plan,
    cast(model_raw_spellings as {{ dbt.type_string() }}) as model_raw_spellings,
    cast(n_model_spellings as bigint) as n_model_spellings,
    cast(n_runs as bigint) as n_runs,
    cast(n_scenarios as bigint) as n_scenarios,
    cast(change_assertions_total as bigint) as change_assertions_total,
    cast(n_change_assertions_distinct as bigint) as n_change_assertions_distinct,
    {%- for m in metrics %}
        cast(n_{{ m }}_measured as bigint) as n_{{ m }}_measured,
        cast({{ m }}_mean as double) as {{ m }}_mean,
        cast({{ m }}_se as double) as {{ m }}_se,
        cast(n_{{ m }}_clusters as bigint) as n_{{ m }}_clusters,
        {#- change when every run's is the pass share of its assertions: a clustered rate over the assertions -#}
        {%- set n_obs, binary = 'n_' ~ m ~ '_measured', 'n_' ~ m ~ '_nonbinary = 0' %}
        {%- if m == 'change' %}
            {%- set n_obs = 'case when n_change_itemised = n_change_measured then n_change_items else n_change_measured end' %}
            {%- set binary = binary ~ ' or n_change_itemised = n_change_measured' %}
        {%- endif %}
        {%- for side in ['low', 'high'] %}
            {{ clustered_mean_bound(m ~ '_mean', m ~ '_se', 'n_' ~ m ~ '_clusters', n_obs, side, binary=binary) }}
                as {{ m }}_ci_{{ side }},
        {%- endfor %}
        cast({{ ci_null_reason(m ~ '_mean', 'n_' ~ m ~ '_clusters') }} as {{ dbt.type_string() }}) as {{ m }}_ci_reason,
    {%- endfor %}
    cast(n_done_but_broke as bigint) as n_done_but_broke,
    cast(n_naive_stamps as bigint) as n_naive_stamps,
    cast(first_stamp as {{ type_timestamptz() }}) as first_stamp,
    cast(last_stamp as {{ type_timestamptz() }}) as last_stamp
from strata_spelled
