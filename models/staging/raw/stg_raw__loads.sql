{#- One row per `evalhouse load` run, with its counters (typed as the loader wrote them). -#}
with

source as (select * from {{ source('raw', 'loads') }})

select
    load_id,
    started_at,
    finished_at,
    files_seen,
    files_loaded,
    files_unchanged,
    files_ignored,
    files_duplicate,
    files_replaced,
    records_landed,
    duplicates_skipped,
    lines_quarantined,
    roots,
    evalhouse_version
from source
