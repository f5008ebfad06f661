{#-
  One row per pipeline measurement (standalone layer or end-to-end), with router grading, blame and
  provenance. `model` is the normalised id of measured_model (the logged spelling).
-#}
with measurements as (select * from {{ ref('int_layered__measurements') }}),

names as {{ model_name_map('measurements', 'measured_model', ref('model_aliases')) }}

select
    m.measurement_key,
    m.pipeline,
    m.task_id,
    m.rep,
    m.measurement,
    m.layer,
    m.is_standalone,
    m.l1,
    m.l2,
    m.l3,
    m.ref_coder,
    m.measured_model,
    n.model,
    m.route_expected,
    m.route_actual,
    m.route_graded,
    m.route_correct,
    m.plan,
    m.note,
    m.passed,
    m.is_failed_total,
    m.blame,
    m.l1_cost,
    m.l1_latency,
    m.l2_cost,
    m.l2_latency,
    m.l3_cost,
    m.l3_latency,
    m.total_cost,
    m.total_latency,
    m.prompt_tokens,
    m.completion_tokens,
    m.cached_tokens,
    m.stamp,
    m.stamp_is_naive,
    m.source_file,
    m.source_line,
    m.load_id
from measurements as m
left join names as n
    on m.measured_model = n.model_raw
