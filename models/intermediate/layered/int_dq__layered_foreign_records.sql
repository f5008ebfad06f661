{#-
  What the logs claim: one row per line under logs_layered/ that is a JSON object with none of the
  family's fields (the list below): foreign JSON, not a record of this family.
  It is left out of every model past staging; the finding says so and what to do.
-#}
select
    {{ dq_finding('LOAD', 'layered', 'r') }},
    {{ foreign_record_detail(['task_id', 'rep', 'measurement', 'passed', 'l1', 'l2', 'l3', 'total_cost']) }} as detail
from {{ ref('stg_layered__measurements') }} as r
where r.is_foreign_record
