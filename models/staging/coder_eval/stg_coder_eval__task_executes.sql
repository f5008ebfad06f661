{#- Audit only (rule R19): no model may select from this one. -#}
{{ coder_eval_evaluation_result_select(source('coder_eval', 'ce_task_execute_docs')) }}
