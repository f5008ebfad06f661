{#-
  What the logs claim: one row per line under logs_big/ that is a JSON object with none of the
  family's fields (the list below): foreign JSON, not a record of this family.
  It is left out of every model past staging; the finding says so and what to do.
-#}
select
    {{ dq_finding('LOAD', 'big', 'r') }},
    {{ foreign_record_detail(['id', 'kind', 'model', 'change', 'regress']) }} as detail
from {{ ref('stg_big__runs') }} as r
where r.is_foreign_record
