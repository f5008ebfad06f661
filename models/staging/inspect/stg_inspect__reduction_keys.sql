{#-
  One row per (log, scorer, reducer, sample, key) of a dict-valued score in reductions.json: the key's value after
  the epoch reducer, as JSON and as inspect_ai's value_to_float (score_name = the key, as the header's results name
  it). A reduced value that is not a dict has no rows here (stg_inspect__reductions holds it).
-#}
with members as (
    select * from {{ ref('base_inspect__members') }}
    where member_kind = 'reductions'
),

reductions as (
    select
        m.source_file,
        r.position as reduction_position,
        r.value as reduction_json,
        m.load_id
    from members as m
    {{ json_each('m.document', '$', 'r') }}
),

reduced_samples as (
    select
        r.source_file,
        r.reduction_position,
        {{ json_text('r.reduction_json', '$.scorer') }} as scorer,
        {{ json_text('r.reduction_json', '$.reducer') }} as reducer,
        s.position as sample_position,
        {{ json_text('s.value', '$.sample_id') }} as sample_id,
        {{ json_fragment('s.value', '$.value') }} as reduced_json,
        r.load_id
    from reductions as r
    {{ json_each('r.reduction_json', '$.samples', 's') }}
),

score_keys as (
    select
        s.source_file,
        s.reduction_position,
        s.scorer,
        s.reducer,
        s.sample_position,
        s.sample_id,
        k.key as score_name,
        k.value as value_json,
        s.load_id
    from reduced_samples as s
    {{ json_each_entry('s.reduced_json', '$', 'k') }}
)

select
    k.source_file,
    k.reduction_position,
    k.scorer,
    k.reducer,
    k.sample_position,
    k.sample_id,
    k.score_name,
    k.value_json,
    {{ inspect_value_to_float(json_type('k.value_json', '$'), json_text('k.value_json', '$')) }} as value_float,
    k.load_id
from score_keys as k
