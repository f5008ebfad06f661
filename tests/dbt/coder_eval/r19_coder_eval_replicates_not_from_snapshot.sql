{#- R19: no replicate row (and so no aggregate built on them) comes from a task.execute.json snapshot. -#}
select replicate_key, source_file
from {{ ref('fct_coder_eval_replicates') }}
where source_file like '%task.execute.json' or record_source not in ('task_json', 'run_json_row')
