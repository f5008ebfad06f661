{{ ce_v_task_fold(['run_id', 'variant_id']) }}
