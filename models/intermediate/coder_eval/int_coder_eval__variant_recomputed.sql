-- One row per (run, variant) over ALL regimes: what variant.json would say if it were written
-- now from the replicate rows (task grain, coder-eval's formulas), next to the same counts at
-- replicate grain. Used only to classify stored-vs-recomputed differences (R21 / R24); the
-- admissible per-regime numbers are in coder_eval_variant_rates (R20).
{#- variant.json's task counts: each counts the tasks of one folded category #}
{%- set task_counts = {'tasks_succeeded': 'succeeded', 'tasks_failed': 'failed', 'tasks_error': 'error',
                       'tasks_not_graded': 'ungraded'} %}
{#- the replicate counts of the folds, summed over the variant's tasks as n_replicates_<count> #}
{%- set replicate_counts = ['graded', 'measured', 'succeeded', 'failed', 'error', 'ungraded'] %}

with folds as (select * from {{ ref('int_coder_eval__variant_task_folds') }}),

task_grain as (
    select
        f.run_id,
        f.variant_id,
        count(*) as tasks_run,
        {%- for name, category in task_counts.items() %}
            sum(case when f.folded_category = '{{ category }}' then 1 else 0 end) as {{ name }},
        {%- endfor %}
        sum(case when f.folded_score is not null then 1 else 0 end) as tasks_measured,
        sum(case when f.folded_status = 'TOKEN_BUDGET_EXCEEDED' then 1 else 0 end) as tasks_token_budget_exceeded,
        sum(case when f.folded_status = 'COST_BUDGET_EXCEEDED' then 1 else 0 end) as tasks_cost_budget_exceeded,
        avg(case when f.folded_category <> 'ungraded' then f.folded_score end) as average_score,
        sum(f.n_replicates) as n_replicates,
        {%- for c in replicate_counts %}
            sum(f.n_{{ c }}) as n_replicates_{{ c }},
        {%- endfor %}
        sum(f.graded_score_sum) as replicate_score_sum
    from folds as f
    group by f.run_id, f.variant_id
),

regimes as (
    select
        r.run_id,
        r.variant_id,
        count(distinct coalesce(r.system_prompt_regime, '(none)')) as n_regimes
    from {{ ref('int_coder_eval__replicates') }} as r
    group by r.run_id, r.variant_id
)

select
    t.run_id,
    t.variant_id,
    t.tasks_run,
    {%- for name in task_counts %}
        t.{{ name }},
    {%- endfor %}
    t.tasks_measured,
    t.tasks_run - t.tasks_not_graded as tasks_graded,
    t.tasks_token_budget_exceeded,
    t.tasks_cost_budget_exceeded,
    -- coder-eval's VariantAggregate.pass_rate, exactly (nothing_was_measured guard on TASK counts)
    case
        when t.tasks_not_graded > 0 and t.tasks_measured = 0 then null
        when t.tasks_run - t.tasks_not_graded = 0 then null
        else cast(t.tasks_succeeded as double) / (t.tasks_run - t.tasks_not_graded)
    end as task_pass_rate_library,
    t.average_score as task_average_score_library,
    t.n_replicates,
    {%- for c in replicate_counts %}
        t.n_replicates_{{ c }},
    {%- endfor %}
    -- replicate grain, run.json's formula (nothing_was_measured guard on REPLICATE counts)
    case
        when t.n_replicates_ungraded > 0 and t.n_replicates_measured = 0 then null
        when t.n_replicates_graded = 0 then null
        else cast(t.n_replicates_succeeded as double) / t.n_replicates_graded
    end as replicate_pass_rate,
    case
        when t.n_replicates_ungraded > 0 and t.n_replicates_measured = 0 then null
        when t.n_replicates_graded = 0 then null
        else t.replicate_score_sum / t.n_replicates_graded
    end as replicate_average_score,
    g.n_regimes
from task_grain as t
inner join regimes as g on {{ same_keys('t', 'g', ['run_id', 'variant_id']) }}
