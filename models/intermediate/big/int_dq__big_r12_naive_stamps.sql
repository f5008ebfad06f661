{#-
  R12 guard (what the logs claim): every figure is reported with its stamp range, so a stamp must
  be a known instant. One row per run whose stamp is missing, does not parse, or is naive (no UTC
  offset; read as UTC).
-#}
with

runs as (select * from {{ ref('stg_big__runs') }})

select
    {{ dq_finding('R12', 'big', 't') }},
    {{ naive_stamp_detail('t') }} as detail
from runs as t
-- a foreign record (not a run) is its own finding (int_dq__big_foreign_records), not a stamp problem
where (t.stamp is null or t.stamp_is_naive) and not coalesce(t.is_foreign_record, false)
