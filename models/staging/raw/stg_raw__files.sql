{#- One row per file the loader has registered (raw.files): what is landed of it, and its log family as the loader
    told it (discovery's verdict, `--family` included), in the one word per family that every mart uses. -#}
with

source as (select * from {{ source('raw', 'files') }})

select
    source_file,
    family,
    case when family like 'coder_eval:%' then 'coder_eval' else family end as source_family,
    size_bytes,
    bytes_landed,
    lines_landed,
    first_load_id,
    last_load_id,
    duplicate_of
from source
