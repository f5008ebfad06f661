{#-
  One row per chat x coder matrix turn, typed, with its evidence class and provenance. `model` (the model
  that answered the turn) is the normalised id; chat_model / coder_model are the cell's own spelling
  (the cell is the file: two spellings are two cells).
-#}
with turns as (select * from {{ ref('int_matrix__turns') }}),

names as {{ model_name_map('turns', 'model', ref('model_aliases')) }}

select
    t.turn_key,
    t.cell,
    t.chat_model,
    t.coder_model,
    n.model,
    t.model as model_raw,
    t.scenario_id,
    t.turn_index,
    t.rep,
    t.cluster_key,
    t.turn_type,
    t.check_kind,
    t.evidence_class,
    t.check_passed,
    t.check_note,
    t.difficulty,
    t.prompt_tokens,
    t.completion_tokens,
    t.cached_tokens,
    t.cost_usd as cost_usd_logged,
    t.latency_s,
    t.stamp,
    t.stamp_is_naive,
    t.source_file,
    t.source_line,
    t.load_id
from turns as t
left join names as n
    on t.model = n.model_raw
