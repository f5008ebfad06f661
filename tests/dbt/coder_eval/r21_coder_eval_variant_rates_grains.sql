-- R21: rates at different grains live in separately named columns: coder_eval_variant_rates.pass_rate is
-- the REPLICATE-grain rate and task_pass_rate the TASK-grain all-replicates-pass rate (pass^k),
-- each recomputed independently here from fct_coder_eval_replicates; a column holding the other grain fails.
with per_task as (
    select
        r.run_id,
        r.variant_id,
        r.system_prompt_regime,
        r.task_id,
        sum(case when r.status_category <> 'ungraded' then 1 else 0 end) as n_graded,
        sum(case when r.status_category = 'succeeded' then 1 else 0 end) as n_succeeded,
        sum(case when r.status_category = 'ungraded' then 1 else 0 end) as n_ungraded,
        sum(case when r.weighted_score is not null then 1 else 0 end) as n_measured
    from {{ ref('fct_coder_eval_replicates') }} as r
    group by r.run_id, r.variant_id, r.system_prompt_regime, r.task_id
),

expected as (
    select
        t.run_id,
        t.variant_id,
        t.system_prompt_regime,
        (sum(t.n_ungraded) > 0 and sum(t.n_measured) = 0) or sum(t.n_graded) = 0 as nothing_measured,
        cast(sum(t.n_succeeded) as double) / nullif(sum(t.n_graded), 0) as replicate_rate,
        cast(sum(case when t.n_graded > 0 and t.n_succeeded = t.n_graded then 1 else 0 end) as double)
        / nullif(sum(case when t.n_graded > 0 then 1 else 0 end), 0) as task_rate
    from per_task as t
    group by t.run_id, t.variant_id, t.system_prompt_regime
)

select
    v.run_id,
    v.variant_id,
    v.system_prompt_regime,
    v.pass_rate,
    v.task_pass_rate,
    e.replicate_rate,
    e.task_rate
from {{ ref('coder_eval_variant_rates') }} as v
inner join expected as e
    on
        {{ same_keys('v', 'e', ['run_id', 'variant_id'], null_safe=['system_prompt_regime']) }}
where
    not coalesce({{ coder_eval_variant_same('v.pass_rate', 'case when not e.nothing_measured then e.replicate_rate end') }}, false)
    or not coalesce({{ coder_eval_variant_same('v.task_pass_rate', 'case when not e.nothing_measured then e.task_rate end') }}, false)
