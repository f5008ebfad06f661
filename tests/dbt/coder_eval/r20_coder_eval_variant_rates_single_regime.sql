-- R20: scores are never pooled across system-prompt regimes: every coder_eval_variant_rates row covers
-- exactly the replicates of ONE (run, variant, regime) stratum, each stratum has exactly one row.
with strata as (
    select
        r.run_id,
        r.variant_id,
        r.system_prompt_regime,
        count(*) as n_replicates
    from {{ ref('fct_coder_eval_replicates') }} as r
    group by r.run_id, r.variant_id, r.system_prompt_regime
),

mart as (
    select
        v.run_id,
        v.variant_id,
        v.system_prompt_regime,
        v.n_replicates,
        count(*) over (partition by v.run_id, v.variant_id, v.system_prompt_regime) as n_rows
    from {{ ref('coder_eval_variant_rates') }} as v
)

select
    coalesce(m.run_id, s.run_id) as run_id,
    coalesce(m.variant_id, s.variant_id) as variant_id,
    coalesce(m.system_prompt_regime, s.system_prompt_regime) as system_prompt_regime,
    m.n_replicates as mart_n_replicates,
    s.n_replicates as stratum_n_replicates,
    m.n_rows
from mart as m
full outer join strata as s
    on
        {{ same_keys('m', 's', ['run_id', 'variant_id'], null_safe=['system_prompt_regime']) }}
where
    m.run_id is null
    or s.run_id is null
    or m.n_rows > 1
    or m.n_replicates <> s.n_replicates
