{#-
  Loader quarantine (what the logs claim): one finding per line or file the loader could not
  land (invalid JSON, not an object, unreadable file ...), so bad input is visible next to the
  rule findings. The family is the loader's (raw.files) where it registered the file, else the
  one the file's name and location tell.
-#}
with

errors as (select * from {{ ref('stg_raw__load_errors') }}),

files as (select * from {{ ref('stg_raw__files') }})

select
    'LOAD' as rule_id,
    coalesce(f.source_family, e.source_family) as source_family,
    e.source_file,
    e.source_line,
    'quarantined by the loader: ' || e.error as detail
from errors as e
left join files as f on e.source_file = f.source_file
