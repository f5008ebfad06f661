{{ coder_eval_evaluation_result_select(source('coder_eval', 'ce_task_docs')) }}
