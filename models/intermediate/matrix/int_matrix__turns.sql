{#-
  One row per matrix turn with its resolved models (a record's own fields win over the file stem), its
  evidence class (check_kind_classes seed; NULL when unmapped: an R08 finding) and its cluster key.
-#}
with turns as (
    select * from {{ ref('stg_matrix__turns') }}
    -- a record with none of a turn's fields is not a turn (an int_dq__matrix_foreign_records finding)
    where not coalesce(is_foreign_record, false)
),

classes as (select * from {{ ref('check_kind_classes') }}),

resolved as (
    select
        t.*,
        coalesce(t.record_chat_model, t.cell_chat_model) as chat_model,
        coalesce(t.record_coder_model, t.cell_coder_model) as coder_model
    from turns as t
)

select
    {{ line_key('r.source_file', 'r.source_line') }} as turn_key,
    r.cell,
    r.chat_model,
    r.coder_model,
    coalesce(
        r.record_model,
        case r.turn_type when 'chat' then r.chat_model when 'coder' then r.coder_model end
    ) as model,
    r.scenario_id,
    r.turn_index,
    r.rep,
    r.scenario_id as cluster_key,
    r.turn_type,
    r.check_kind,
    c.evidence_class,
    r.check_passed,
    r.check_note,
    r.difficulty,
    r.prompt_tokens,
    r.completion_tokens,
    r.cached_tokens,
    r.cost_usd,
    r.latency_s,
    r.stamp,
    r.stamp_is_naive,
    r.source_file,
    r.source_line,
    r.load_id
from resolved as r
left join classes as c
    on r.check_kind = c.check_kind
