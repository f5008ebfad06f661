-- R20: a variant comparison pairs tasks within ONE system-prompt regime: n_pairs can never exceed
-- the tasks both variants have graded replicates of in that regime, and each (run, regime, pair)
-- has one row.
with arm_tasks as (
    select distinct
        r.run_id,
        r.system_prompt_regime,
        r.variant_id,
        r.task_id
    from {{ ref('fct_coder_eval_replicates') }} as r
    where r.status_category <> 'ungraded'
),

common as (
    select
        a.run_id,
        a.system_prompt_regime,
        a.variant_id as variant_a,
        b.variant_id as variant_b,
        count(*) as n_common_tasks
    from arm_tasks as a
    inner join arm_tasks as b
        on
            {{ same_keys('a', 'b', ['run_id', 'task_id'], null_safe=['system_prompt_regime']) }}
            and a.variant_id <> b.variant_id
    group by a.run_id, a.system_prompt_regime, a.variant_id, b.variant_id
),

mart as (
    select
        c.*,
        count(*) over (partition by c.run_id, c.system_prompt_regime, c.variant_a, c.variant_b) as n_rows
    from {{ ref('coder_eval_variant_comparisons') }} as c
)

select
    m.run_id,
    m.system_prompt_regime,
    m.variant_a,
    m.variant_b,
    m.n_pairs,
    k.n_common_tasks,
    m.n_rows
from mart as m
left join common as k
    on
        {{ same_keys('m', 'k', ['run_id', 'variant_a', 'variant_b'], null_safe=['system_prompt_regime']) }}
where
    k.run_id is null
    or m.n_pairs > k.n_common_tasks
    or m.n_rows > 1
