{#-
  R23 (what run.json claims): a row's total_cost_usd = agent + judge + simulator (coder-eval's sum_costs: the
  non-NULL components, NULL only when all are NULL), and the run's total_cost_usd = agent_cost_usd +
  eval_overhead_cost_usd. Checked where the writer stored the breakdown (0.10.1+). Judge and simulator spend
  never count as agent spend. One row per run.json row or run.json that disagrees (tolerance 1e-9 relative).
-#}
with run_rows as (
    select * from {{ ref('stg_coder_eval__run_task_results') }}
    where has_cost_breakdown
),

runs as (
    select * from {{ ref('stg_coder_eval__runs') }}
    where agent_cost_usd_stored is not null or eval_overhead_cost_usd_stored is not null
),

row_checks as (
    select
        source_file,
        'task_results[' || cast(row_index as {{ dbt.type_string() }}) || '] (' || variant_id || '/' || task_id || '/'
        || coalesce(cast(replicate_index as {{ dbt.type_string() }}), '?') || '): total_cost_usd '
        || coalesce({{ number_text('total_cost_usd') }}, 'null') || ' vs agent+judge+simulator '
        || coalesce({{ number_text('component_sum') }}, 'null') as detail,
        total_cost_usd,
        component_sum
    from (
        select
            *,
            case
                when agent_cost_usd is not null or judge_cost_usd is not null or simulator_cost_usd is not null
                    then coalesce(agent_cost_usd, 0) + coalesce(judge_cost_usd, 0) + coalesce(simulator_cost_usd, 0)
            end as component_sum
        from run_rows
    ) as x
),

run_checks as (
    select
        source_file,
        'run total_cost_usd ' || coalesce({{ number_text('total_cost_usd_stored') }}, 'null')
        || ' vs agent_cost_usd + eval_overhead_cost_usd '
        || coalesce({{ number_text('component_sum') }}, 'null') as detail,
        total_cost_usd_stored as total_cost_usd,
        component_sum
    from (
        select
            *,
            case
                when agent_cost_usd_stored is not null or eval_overhead_cost_usd_stored is not null
                    then coalesce(agent_cost_usd_stored, 0) + coalesce(eval_overhead_cost_usd_stored, 0)
            end as component_sum
        from runs
    ) as y
),

all_checks as (
    select * from row_checks
    union all
    select * from run_checks
)

select
    {{ dq_finding('R23', 'coder_eval', line=false) }},
    detail
from all_checks
where
    (total_cost_usd is null) <> (component_sum is null)
    or abs(total_cost_usd - component_sum) > 1e-9 * greatest(1.0, abs(total_cost_usd))
