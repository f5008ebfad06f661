{#-
  Every TokenUsage object in task.json, one row each: the replicate total (total_token_usage),
  each turn (iterations[].token_usage) and each judge criterion result (token_usage, success and
  post-failure lists). Legacy input_tokens-only objects are adopted as the uncached slice.
-#}
with task_docs as (select * from {{ ref('base_coder_eval__task_docs') }}),

iterations as (select * from {{ ref('base_coder_eval__task_iterations') }}),

criteria as (
    {{ coder_eval_task_doc_elements_select('task_docs', [
        ('success', 'success_criteria_results'),
        ('post_failure', 'post_failure_criteria_results'),
    ], 'result_phase', 'criterion_index', 'result_json') }}
)

select
    {{ coder_eval_replicate_identity('d') }},
    'replicate_total' as usage_scope,
    cast(null as bigint) as iteration_index,
    cast(null as {{ dbt.type_string() }}) as result_phase,
    cast(null as bigint) as criterion_index,
    {{ coder_eval_token_usage_columns('d.document', '$.total_token_usage', '') }},
    {{ coder_eval_provenance('d') }}
from task_docs as d
where {{ coder_eval_is_object('d.document', '$.total_token_usage') }}
union all
select
    {{ coder_eval_replicate_identity('i') }},
    'turn' as usage_scope,
    i.iteration_index,
    cast(null as {{ dbt.type_string() }}) as result_phase,
    cast(null as bigint) as criterion_index,
    {{ coder_eval_token_usage_columns('i.iteration_json', '$.token_usage', '') }},
    {{ coder_eval_provenance('i') }}
from iterations as i
where {{ coder_eval_is_object('i.iteration_json', '$.token_usage') }}
union all
select
    {{ coder_eval_replicate_identity('c') }},
    'judge_result' as usage_scope,
    cast(null as bigint) as iteration_index,
    c.result_phase,
    c.criterion_index,
    {{ coder_eval_token_usage_columns('c.result_json', '$.token_usage', '') }},
    {{ coder_eval_provenance('c') }}
from criteria as c
where {{ coder_eval_is_object('c.result_json', '$.token_usage') }}
