{#-
  One row per (log, sample, epoch, scorer): a sample's score as the JSON its scorer wrote ({value, answer,
  explanation, ...}), unnested once. A base model: stg_inspect__sample_scores types it and
  stg_inspect__sample_score_keys unnests a dict-valued score's keys.
-#}
with members as (select * from {{ ref('base_inspect__sample_members') }})

select
    {{ qualified('m', inspect_sample_grain()) }},
    sc.key as scorer,
    sc.position as scorer_position,
    sc.value as score_json,
    m.load_id
from members as m
{{ json_each_entry('m.document', '$.scores', 'sc') }}
