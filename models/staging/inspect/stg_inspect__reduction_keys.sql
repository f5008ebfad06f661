{#-
  One row per (log, scorer, reducer, sample, key) of a dict-valued score in reductions.json: the key's value after
  the epoch reducer, as JSON and as inspect_ai's value_to_float (score_name = the key, as the header's results name
  it). A reduced value that is not a dict has no rows here (stg_inspect__reductions holds it).
-#}
with reduced_samples as (select * from {{ ref('base_inspect__reduced_samples') }})

select
    {{ qualified('r', inspect_reduced_sample_keys()) }},
    k.key as score_name,
    k.value as value_json,
    {{ inspect_value_to_float(json_type('k.value', '$'), json_text('k.value', '$')) }} as value_float,
    r.load_id
from reduced_samples as r
{{ json_each_entry('r.sample_json', '$.value', 'k') }}
