{#-
  What the logs claim: one row per line under logs_layered/ that is a JSON object with none of the
  family's fields (task_id, rep, measurement, passed, l1, l2, l3, total_cost): foreign JSON, not a record of this family.
  It is left out of every model past staging; the finding says so and what to do.
-#}
select
    {{ dq_finding('LOAD', 'layered', 'r') }},
    'a JSON object with none of the fields of this family (task_id, rep, measurement, passed, l1, l2, l3, total_cost): '
    || 'not a record of it, left out of every mart; if it belongs to another family, move the file (logs_big/ runs, logs/ matrix turns, '
    || 'logs_layered/ pipeline measurements) or load it with --family' as detail
from {{ ref('stg_layered__measurements') }} as r
where r.is_foreign_record
