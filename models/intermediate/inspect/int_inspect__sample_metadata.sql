{#-
  One row per (log, sample, key of the sample's metadata): the value as JSON text (the cluster of a clustered
  stderr: int_inspect__sample_values) and as Python's str() spells it, which is how inspect_ai's grouped() names
  the sample's group (int_inspect__metrics_recomputed): a string as is, a number as written, true / false / null
  as True / False / None. A sample's epochs share its metadata; where they differ, the least value is kept.
-#}
with samples as (
    select * from {{ ref('stg_inspect__samples') }}
),

entries as (
    select
        s.source_file,
        s.sample_id,
        md.key as metadata_key,
        min(md.value) as metadata_json
    from samples as s
    {{ json_each_entry('s.metadata_json', '$', 'md') }}
    group by s.source_file, s.sample_id, md.key
)

select
    e.source_file,
    e.sample_id,
    e.metadata_key,
    e.metadata_json,
    case {{ json_type('e.metadata_json', '$') }}
        when 'BOOLEAN' then case when {{ json_text('e.metadata_json', '$') }} = 'true' then 'True' else 'False' end
        when 'NULL' then 'None'
        else {{ json_text('e.metadata_json', '$') }}
    end as metadata_str
from entries as e
