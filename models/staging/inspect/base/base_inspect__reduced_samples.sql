{#-
  One row per (log, scorer, reducer, sample) of reductions.json: the sample's id and its entry ({sample_id, value,
  ...}) as JSON, unnested once. A reduction's scorer and reducer are read once, before its samples are unnested
  (not once per sample from the whole reduction's text). A base model: stg_inspect__reductions types it and
  stg_inspect__reduction_keys unnests a reduced dict's keys.
-#}
with members as (
    select * from {{ ref('base_inspect__members') }}
    where member_kind = 'reductions'
),

reductions as (
    select
        m.source_file,
        r.position as reduction_position,
        {{ json_text('r.value', '$.scorer') }} as scorer,
        {{ json_text('r.value', '$.reducer') }} as reducer,
        r.value as reduction_json,
        m.load_id
    from members as m
    {{ json_each('m.document', '$', 'r') }}
)

select
    r.source_file,
    r.reduction_position,
    r.scorer,
    r.reducer,
    s.position as sample_position,
    {{ json_text('s.value', '$.sample_id') }} as sample_id,
    s.value as sample_json,
    r.load_id
from reductions as r
{{ json_each('r.reduction_json', '$.samples', 's') }}
