{#-
  What the logs claim: one row per line under logs_big/ that is a JSON object with none of the
  family's fields (id, kind, model, change, regress): foreign JSON, not a record of this family.
  It is left out of every model past staging; the finding says so and what to do.
-#}
select
    {{ dq_finding('LOAD', 'big', 'r') }},
    'a JSON object with none of the fields of this family (id, kind, model, change, regress): '
    || 'not a record of it, left out of every mart; if it belongs to another family, move the file (logs_big/ runs, logs/ matrix turns, '
    || 'logs_layered/ pipeline measurements) or load it with --family' as detail
from {{ ref('stg_big__runs') }} as r
where r.is_foreign_record
