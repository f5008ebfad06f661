{#-
  One row per (log, sample, epoch, scorer, key) of a dict-valued score: a scorer that returns {key: value} and
  declares a metric per key, so each key is a score of its own in the header's results (score_name = the key).
  `value_float` is inspect_ai's value_to_float of the key's value. A score that is not a dict has no rows here
  (stg_inspect__sample_scores holds it).
-#}
with scores as (select * from {{ ref('base_inspect__sample_scores') }})

select
    {{ qualified('s', inspect_sample_grain()) }},
    s.scorer,
    k.key as score_name,
    k.value as value_json,
    {{ inspect_value_to_float(json_type('k.value', '$'), json_text('k.value', '$')) }} as value_float,
    s.load_id
from scores as s
{{ json_each_entry('s.score_json', '$.value', 'k') }}
