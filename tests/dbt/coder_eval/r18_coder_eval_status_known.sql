{#-
  R18: every FinalStatus value in task.json and run.json rows maps to a category through the seed
  final_status_categories; an unknown value (e.g. the dashboard fixture's 'succeeded') fails.
-#}
with statuses as (
    select source_file, final_status from {{ ref('stg_coder_eval__tasks') }}
    union all
    select source_file, final_status from {{ ref('stg_coder_eval__run_task_results') }}
)

select s.source_file, s.final_status
from statuses as s
left join {{ ref('final_status_categories') }} as c
    on s.final_status = c.final_status
where c.final_status is null
