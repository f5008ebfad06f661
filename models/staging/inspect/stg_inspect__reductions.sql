{#- One row per (log, scorer, reducer, sample) of reductions.json: the per-sample value after the epoch reducer. -#}
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
)

select
    r.source_file,
    r.reduction_position,
    {{ json_text('r.reduction_json', '$.scorer') }} as scorer,
    {{ json_text('r.reduction_json', '$.reducer') }} as reducer,
    s.position as sample_position,
    {{ json_text('s.value', '$.sample_id') }} as sample_id,
    {{ json_type('s.value', '$.value') }} as value_json_type,
    {{ json_text('s.value', '$.value') }} as value_text,
    {{ json_fragment('s.value', '$.value') }} as value_json,
    {{ inspect_value_to_float(json_type('s.value', '$.value'), json_text('s.value', '$.value')) }} as value_float,
    r.load_id
from reductions as r
{{ json_each('r.reduction_json', '$.samples', 's') }}
