{#-
  One row per task.json (EvaluationResult) document: the replicate identity with task_id resolved once (stored,
  else from the path), provenance and the document. A base model: the staging models that unnest task.json's
  lists read it, so the task_id is read once per document, not once per element from the whole document.
-#}
with source as (select * from {{ source('coder_eval', 'ce_task_docs') }})

select
    d.run_dir,
    d.run_id,
    d.variant_id,
    coalesce({{ json_text('d.document', '$.task_id') }}, d.task_id) as task_id,
    d.replicate_index,
    {{ coder_eval_provenance('d') }},
    d.document
from source as d
