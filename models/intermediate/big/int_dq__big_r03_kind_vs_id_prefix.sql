{#-
  R03 guard (what the logs claim): the logged `kind` decides the stratum, and the scenario id's
  prefix (B = fix, R = refactor, A = awareness) is a cross-check. One row per run where they
  disagree, or where `kind` is missing: such a run may sit in the wrong (or no) stratum.
-#}
with

runs as (select * from {{ ref('stg_big__runs') }})

select
    {{ dq_finding('R03', 'big') }},
    case
        when kind is null then 'kind is missing (id ' || coalesce(scenario_id, 'NULL') || ')'
        else 'kind ''' || kind_raw || ''' but id ''' || scenario_id || ''' implies ' || kind_from_id_prefix
    end as detail
from runs
where
    (kind is null or (kind_from_id_prefix is not null and kind <> kind_from_id_prefix))
    -- a foreign record (not a run) is its own finding (int_dq__big_foreign_records)
    and not coalesce(is_foreign_record, false)
