{#-
  Per replicate (task.json): judge spend = sum of JudgeCriterionResult.token_usage.total_cost_usd over the
  success AND post-failure lists (models/results.py judge_cost_usd); NULL when no judge result was priced
  (sum_costs: None only when every component is None).
-#}
select
    run_dir,
    variant_id,
    task_id,
    replicate_index,
    count(*) filter (where result_kind = 'judge') as n_judge_results,
    sum(judge_cost_usd) filter (where result_kind = 'judge') as judge_cost_usd
from {{ ref('stg_coder_eval__criterion_results') }}
group by run_dir, variant_id, task_id, replicate_index
