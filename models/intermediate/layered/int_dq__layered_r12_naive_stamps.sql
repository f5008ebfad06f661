{#-
  R12 guard (what the logs claim): one row per layered measurement whose stamp is missing, does not parse, or is naive
  (no UTC offset; read as UTC), so the stamp ranges that include it are uncertain.
-#}
with

measurements as (select * from {{ ref('stg_layered__measurements') }})

select
    {{ dq_finding('R12', 'layered', 't') }},
    {{ naive_stamp_detail('t') }} as detail
from measurements as t
-- a foreign record (not one of the family's) is its own finding (int_dq__layered_foreign_records), not a stamp problem
where (t.stamp is null or t.stamp_is_naive) and not coalesce(t.is_foreign_record, false)
