{#- One row per (log, scorer, reducer, sample) of reductions.json: the per-sample value after the epoch reducer. -#}
with reduced_samples as (select * from {{ ref('base_inspect__reduced_samples') }})

select
    {{ qualified('r', inspect_reduced_sample_keys()) }},
    {{ json_type('r.sample_json', '$.value') }} as value_json_type,
    {{ json_text('r.sample_json', '$.value') }} as value_text,
    {{ json_fragment('r.sample_json', '$.value') }} as value_json,
    {{ inspect_value_to_float(json_type('r.sample_json', '$.value'), json_text('r.sample_json', '$.value')) }} as value_float,
    r.load_id
from reduced_samples as r
