{#-
  R12 guard (what the logs claim): one row per layered measurement whose stamp is missing, does not parse, or is naive
  (no UTC offset; read as UTC), so the stamp ranges that include it are uncertain.
-#}
select
    'R12' as rule_id,
    'layered' as source_family,
    t.source_file,
    t.source_line,
    case
        when t.stamp_raw is null then 'stamp is missing'
        when t.stamp is null then 'stamp ''' || t.stamp_raw || ''' does not parse as a timestamp'
        else 'stamp ''' || t.stamp_raw || ''' has no UTC offset (read as UTC)'
    end as detail
from {{ ref('stg_layered__measurements') }} as t
where t.stamp is null or t.stamp_is_naive
