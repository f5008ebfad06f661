{#-
  R23 (computed): in fct_coder_eval_replicates total_cost_usd = agent + judge + simulator (NULL only when all three are
  NULL, never 0 for unknown), and in coder_eval_run_summaries the recomputed total = agent + eval overhead; judge and
  simulator spend never count as agent spend.
-#}
with replicates as (
    select
        replicate_key as key,
        total_cost_usd,
        case
            when agent_cost_usd is not null or judge_cost_usd is not null or simulator_cost_usd is not null
                then coalesce(agent_cost_usd, 0) + coalesce(judge_cost_usd, 0) + coalesce(simulator_cost_usd, 0)
        end as component_sum
    from {{ ref('fct_coder_eval_replicates') }}
),

runs as (
    select
        run_dir as key,
        total_cost_usd,
        case
            when agent_cost_usd is not null or eval_overhead_cost_usd is not null
                then coalesce(agent_cost_usd, 0) + coalesce(eval_overhead_cost_usd, 0)
        end as component_sum
    from {{ ref('coder_eval_run_summaries') }}
),

checks as (
    select * from replicates
    union all
    select * from runs
)

select *
from checks
where
    (total_cost_usd is null) <> (component_sum is null)
    or abs(total_cost_usd - component_sum) > 1e-9 * greatest(1.0, abs(total_cost_usd))
