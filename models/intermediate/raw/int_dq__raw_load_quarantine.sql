{#-
  Loader quarantine (what the logs claim): one finding per line or file the loader could not
  land (invalid JSON, not an object, unreadable file ...), so bad input is visible next to the
  rule findings.
-#}
with

errors as (
    select * from {{ ref('stg_raw__load_errors') }}
)

select
    'LOAD' as rule_id,
    source_family,
    source_file,
    source_line,
    'quarantined by the loader: ' || error as detail
from errors
