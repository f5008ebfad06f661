{#-
  What the logs claim: one row per line under logs/ that is a JSON object with none of the
  family's fields (the list below): foreign JSON, not a record of this family.
  It is left out of every model past staging; the finding says so and what to do.
-#}
select
    {{ dq_finding('LOAD', 'matrix', 'r') }},
    {{ foreign_record_detail(['scenario_id', 'turn_index', 'type', 'check_kind', 'check_passed']) }} as detail
from {{ ref('stg_matrix__turns') }} as r
where r.is_foreign_record
