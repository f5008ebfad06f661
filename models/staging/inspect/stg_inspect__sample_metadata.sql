{#-
  One row per (log, sample, epoch, key of the sample's metadata): the value as JSON text (the cluster of a clustered
  stderr) and as Python's str() spells it, which is how inspect_ai's grouped() names the sample's group
  (inspect_group_name: a string as is, True / False / None, a float as Python writes it, a list or dict as its repr).
-#}
with members as (select * from {{ ref('base_inspect__sample_members') }}),

metadata as (
    select
        m.source_file,
        m.sample_id,
        m.epoch,
        {{ json_fragment('m.document', '$.metadata') }} as metadata_json,
        m.load_id
    from members as m
),

entries as (
    select
        d.source_file,
        d.sample_id,
        d.epoch,
        md.key as metadata_key,
        md.value as metadata_json,
        d.load_id
    from metadata as d
    {{ json_each_entry('d.metadata_json', '$', 'md') }}
)

select
    e.source_file,
    e.sample_id,
    e.epoch,
    e.metadata_key,
    e.metadata_json,
    {{ inspect_group_name('e.metadata_json') }} as metadata_str,
    e.load_id
from entries as e
