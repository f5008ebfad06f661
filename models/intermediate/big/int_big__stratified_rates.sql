{#-
  One row per (kind, model, with_brain, with_plan) over every run of int_big__runs: the body of big_rates
  (fix, refactor) and big_awareness_rates (awareness), which select their kinds from here. `model` is the
  normalised id (model_aliases), so a model logged under two routes (openrouter/deepseek-v4-flash,
  deepseek-v4-flash) is one stratum; model_raw_spellings lists the logged spellings pooled
  (fct_big_runs.model_raw splits them). Means of change / regress with a cluster-robust (by scenario_id)
  95% interval with a t(C-1) critical value (contract: statistics conventions), the assertion count next to
  the change mean (R01), done-but-broke counts (R06) and the stamp range (R12). Kinds are never pooled:
  kind is part of the grain (R03).
-#}
with

runs as (
    select * from {{ ref('int_big__runs') }}
),

clusters as (
    select
        kind,
        model,
        with_brain,
        with_plan,
        scenario_id,
        count(*) as n_runs,
        sum(change) as change_sum,
        count(change) as change_n,
        sum(regress) as regress_sum,
        count(regress) as regress_n,
        sum(change_assertions_total) as change_assertions_total,
        max(change_assertions_total) as change_assertions_per_run,
        count(case when done_but_broke then 1 end) as n_done_but_broke,
        count(case when stamp_is_naive then 1 end) as n_naive_stamps,
        min(stamp) as first_stamp,
        max(stamp) as last_stamp
    from runs
    group by kind, model, with_brain, with_plan, scenario_id
),

strata as (
    select
        kind,
        model,
        with_brain,
        with_plan,
        sum(n_runs) as n_runs,
        count(scenario_id) as n_scenarios,
        sum(change_assertions_total) as change_assertions_total,
        sum(change_assertions_per_run) as n_change_assertions_distinct,
        sum(change_n) as n_change_measured,
        sum(change_sum) / nullif(sum(change_n), 0) as change_mean,
        {{ cluster_se('change_sum', 'change_n') }} as change_se,
        count(case when change_n > 0 then 1 end) as n_change_clusters,
        sum(regress_n) as n_regress_measured,
        sum(regress_sum) / nullif(sum(regress_n), 0) as regress_mean,
        {{ cluster_se('regress_sum', 'regress_n') }} as regress_se,
        count(case when regress_n > 0 then 1 end) as n_regress_clusters,
        sum(n_done_but_broke) as n_done_but_broke,
        sum(n_naive_stamps) as n_naive_stamps,
        min(first_stamp) as first_stamp,
        max(last_stamp) as last_stamp
    from clusters
    group by kind, model, with_brain, with_plan
),

-- the logged spellings (routes) pooled under one normalised model id
run_spellings as (
    select distinct
        kind,
        model,
        with_brain,
        with_plan,
        model_raw
    from runs
),

spellings as (
    select
        kind,
        model,
        with_brain,
        with_plan,
        count(model_raw) as n_model_spellings,
        {{ ordered_string_agg('model_raw', ', ', 'model_raw') }} as model_raw_spellings
    from run_spellings
    group by kind, model, with_brain, with_plan
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
    cast(n_change_measured as bigint) as n_change_measured,
    cast(change_mean as double) as change_mean,
    cast(change_se as double) as change_se,
    cast(n_change_clusters as bigint) as n_change_clusters,
    {{ clustered_mean_bound('change_mean', 'change_se', 'n_change_clusters', 'n_change_measured', 'low') }} as change_ci_low,
    {{ clustered_mean_bound('change_mean', 'change_se', 'n_change_clusters', 'n_change_measured', 'high') }} as change_ci_high,
    cast({{ ci_null_reason('change_mean', 'n_change_clusters') }} as {{ dbt.type_string() }}) as change_ci_reason,
    cast(n_regress_measured as bigint) as n_regress_measured,
    cast(regress_mean as double) as regress_mean,
    cast(regress_se as double) as regress_se,
    cast(n_regress_clusters as bigint) as n_regress_clusters,
    {{ clustered_mean_bound('regress_mean', 'regress_se', 'n_regress_clusters', 'n_regress_measured', 'low') }} as regress_ci_low,
    {{ clustered_mean_bound('regress_mean', 'regress_se', 'n_regress_clusters', 'n_regress_measured', 'high') }} as regress_ci_high,
    cast({{ ci_null_reason('regress_mean', 'n_regress_clusters') }} as {{ dbt.type_string() }}) as regress_ci_reason,
    cast(n_done_but_broke as bigint) as n_done_but_broke,
    cast(n_naive_stamps as bigint) as n_naive_stamps,
    cast(first_stamp as {{ type_timestamptz() }}) as first_stamp,
    cast(last_stamp as {{ type_timestamptz() }}) as last_stamp
from strata_spelled
