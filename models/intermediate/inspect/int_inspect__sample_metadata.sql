{#-
  One row per (log, sample, key of the sample's metadata): the value its epochs give (stg_inspect__sample_metadata),
  as JSON text and as Python's str() spells it. A sample's epochs share its metadata; where they differ, the least
  JSON text is kept, with its own str() spelling.
-#}
with metadata as (select * from {{ ref('stg_inspect__sample_metadata') }}),

ranked as (
    select
        m.source_file,
        m.sample_id,
        m.metadata_key,
        m.metadata_json,
        m.metadata_str,
        row_number() over (
            partition by m.source_file, m.sample_id, m.metadata_key
            order by m.metadata_json, m.epoch
        ) as value_rank
    from metadata as m
)

select
    r.source_file,
    r.sample_id,
    r.metadata_key,
    r.metadata_json,
    r.metadata_str
from ranked as r
where r.value_rank = 1
