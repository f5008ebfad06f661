{#-
  One row per pipeline measurement with its layer, the model it measured, router grading and, for failed
  end-to-end (`total`) rows, exactly one blame (R11): `router` when route_actual differs from route_expected,
  else the layer the note names (`planner` or `coder`; if it names both, the one named first), else
  `unattributed`.
-#}
with m as (
    select * from {{ ref('stg_layered__measurements') }}
    -- a record with none of a measurement's fields is not one (an int_dq__layered_foreign_records finding)
    where not coalesce(is_foreign_record, false)
),

graded as (
    select
        m.*,
        case m.measurement
            when 'l1' then 'l1'
            when 'l2plan' then 'l2'
            when 'l2conv' then 'l2'
            when 'l3' then 'l3'
            when 'total' then 'total'
        end as layer,
        case m.measurement
            when 'l1' then m.l1
            when 'l2plan' then m.l2
            when 'l2conv' then m.l2
            when 'l3' then m.l3
        end as measured_model,
        m.route_expected is not null and m.route_actual is not null as route_graded,
        case
            when m.route_expected is not null and m.route_actual is not null
                then m.route_expected = m.route_actual
        end as route_correct,
        nullif(position('planner' in lower(coalesce(m.note, ''))), 0) as note_planner_at,
        nullif(position('coder' in lower(coalesce(m.note, ''))), 0) as note_coder_at
    from m
)

select
    {{ line_key('g.source_file', 'g.source_line') }} as measurement_key,
    g.pipeline,
    g.task_id,
    g.rep,
    g.measurement,
    g.layer,
    g.measurement in ('l1', 'l2plan', 'l2conv', 'l3') as is_standalone,
    g.l1,
    g.l2,
    g.l3,
    g.ref_coder,
    g.measured_model,
    g.route_expected,
    g.route_actual,
    g.route_graded,
    g.route_correct,
    g.plan,
    g.note,
    g.passed,
    g.measurement = 'total' and g.passed = false as is_failed_total,
    case
        when not (g.measurement = 'total' and g.passed = false) then null
        when g.route_graded and not g.route_correct then 'router'
        when g.note_planner_at is not null and (g.note_coder_at is null or g.note_planner_at < g.note_coder_at)
            then 'planner'
        when g.note_coder_at is not null then 'coder'
        else 'unattributed'
    end as blame,
    g.l1_cost,
    g.l1_latency,
    g.l2_cost,
    g.l2_latency,
    g.l3_cost,
    g.l3_latency,
    g.total_cost,
    g.total_latency,
    g.prompt_tokens,
    g.completion_tokens,
    g.cached_tokens,
    g.stamp,
    g.stamp_is_naive,
    g.source_file,
    g.source_line,
    g.load_id
from graded as g
