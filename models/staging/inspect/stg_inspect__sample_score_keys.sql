{#-
  One row per (log, sample, epoch, scorer, key) of a dict-valued score: a scorer that returns {key: value} and
  declares a metric per key, so each key is a score of its own in the header's results (score_name = the key).
  `value_float` is inspect_ai's value_to_float of the key's value. A score that is not a dict has no rows here
  (stg_inspect__sample_scores holds it).
-#}
with members as (
    select * from {{ ref('base_inspect__members') }}
    where member_kind = 'sample'
),

scores as (
    select
        {{ qualified('m', inspect_sample_grain()) }},
        sc.key as scorer,
        {{ json_fragment('sc.value', '$.value') }} as score_json,
        m.load_id
    from members as m
    {{ json_each_entry('m.document', '$.scores', 'sc') }}
),

score_keys as (
    select
        {{ qualified('s', inspect_sample_grain()) }},
        s.scorer,
        k.key as score_name,
        k.value as value_json,
        s.load_id
    from scores as s
    {{ json_each_entry('s.score_json', '$', 'k') }}
)

select
    {{ qualified('k', inspect_sample_grain()) }},
    k.scorer,
    k.score_name,
    k.value_json,
    {{ inspect_value_to_float(json_type('k.value_json', '$'), json_text('k.value_json', '$')) }} as value_float,
    k.load_id
from score_keys as k
