{#-
  One row per TurnRecord of every task.json, from `iterations` or the legacy key `turns` (the only read
  alias of EvaluationResult): the replicate identity, iteration_index (0-based list position: a crashed
  partial and its retry share `iteration`), the element as iteration_json and the key it came from.
  A base model: the per-turn staging models (iterations, commands, messages, provider calls and errors,
  token usage) read their lists from here, so the unnesting is written once.
-#}
with task_docs as (select * from {{ ref('base_coder_eval__task_docs') }})

select
    {{ coder_eval_task_doc_identity('d') }},
    el.position as iteration_index,
    el.value as iteration_json,
    'iterations' as iterations_key
from task_docs as d
{{ json_each('d.document', '$.iterations', 'el') }}
union all
select
    {{ coder_eval_task_doc_identity('d') }},
    el.position as iteration_index,
    el.value as iteration_json,
    'turns' as iterations_key
from task_docs as d
{{ json_each('d.document', '$.turns', 'el') }}
where not {{ json_has('d.document', '$.iterations') }}
