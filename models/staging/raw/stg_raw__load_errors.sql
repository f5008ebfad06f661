{#- One row per line or file the loader quarantined, with the log family derived from its path. -#}
with

source as (
    select * from {{ source('raw', 'load_errors') }}
)

select
    load_id,
    source_file,
    source_line,
    error,
    raw_text,
    case
        when ('/' || source_file) like '%/logs_big/%' then 'big'
        when ('/' || source_file) like '%/logs_layered/%' then 'layered'
        when ('/' || source_file) like '%/logs/%' then 'matrix'
        when source_file like '%.json' or source_file like '%.yaml' or source_file like '%.yml' then 'coder_eval'
        else 'unknown'
    end as source_family
from source
