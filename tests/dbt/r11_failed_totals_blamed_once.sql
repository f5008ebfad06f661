-- R11: every failed end-to-end (total) row carries exactly one blame in router / planner / coder /
-- unattributed, and no other row carries a blame.
select
    m.source_file,
    m.source_line,
    m.measurement,
    m.passed,
    m.blame
from {{ ref('fct_layered_measurements') }} as m
where
    (m.is_failed_total and (m.blame is null or m.blame not in ('router', 'planner', 'coder', 'unattributed')))
    or (not m.is_failed_total and m.blame is not null)
    or (m.is_failed_total and m.route_graded and not m.route_correct and m.blame <> 'router')
