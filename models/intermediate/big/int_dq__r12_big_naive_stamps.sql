{#-
  R12 guard (what the logs claim): every figure is reported with its stamp range, so a stamp must
  be a known instant. One row per run whose stamp is missing, does not parse, or is naive (no UTC
  offset; read as UTC).
-#}
with

runs as (
    select * from {{ ref('stg_big__runs') }}
)

select
    'R12' as rule_id,
    'big' as source_family,
    source_file,
    source_line,
    case
        when stamp_raw is null then 'stamp is missing'
        when stamp is null then 'stamp ''' || stamp_raw || ''' does not parse as a timestamp'
        else 'stamp ''' || stamp_raw || ''' has no UTC offset (read as UTC)'
    end as detail
from runs
-- a foreign record (not a run) is its own finding (int_dq__big_foreign_records), not a stamp problem
where (stamp is null or stamp_is_naive) and not coalesce(is_foreign_record, false)
