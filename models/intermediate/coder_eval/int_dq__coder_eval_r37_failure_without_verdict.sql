{#-
  R37 (what task.json claims): one row per replicate whose task.json says FAILURE but holds no criterion result,
  so no check ran and there is no verdict. coder-eval writes this record for a replicate cancelled before its result
  was final, during setup or grading (an interrupted run; `coder-eval run --resume` then counts it as finished).
  evalhouse counts it as not graded (int_coder_eval__replicates); run.json and variant.json count it as a failure.
-#}
with replicates as (select * from {{ ref('int_coder_eval__replicates') }})

select
    {{ dq_finding('R37', 'coder_eval', 'r', line=false) }},
    'variant ' || r.variant_id || ', task ' || r.task_id || ', replicate '
    || coalesce(cast(r.replicate_index as {{ dbt.type_string() }}), '?')
    || ': final_status FAILURE with no criterion result (no check ran: an interrupted replicate)'
    || '; evalhouse counts it as not graded, while run.json and variant.json count it as a failure'
    || '; to measure it, delete this replicate''s folder and finish the run with'
    || ' `coder-eval run --resume --run-dir ' || r.run_dir || '`, then load again' as detail
from replicates as r
where r.is_failure_without_verdict
