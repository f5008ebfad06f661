-- R08: every matrix_pass_rates row counts the turns of exactly one evidence class: recompute the strata from
-- fct_matrix_turns and compare (a pooled row would hold turns of another class, or a class would be missing).
with recomputed as (
    select
        t.cell,
        t.turn_type as type,
        t.evidence_class,
        t.difficulty,
        count(t.check_passed) as n_turns,
        count(*) filter (where t.check_passed) as n_passed
    from {{ ref('fct_matrix_turns') }} as t
    where t.evidence_class is not null
    group by t.cell, t.turn_type, t.evidence_class, t.difficulty
)

select
    coalesce(r.cell, m.cell) as cell,
    coalesce(r.type, m.type) as type,
    coalesce(r.evidence_class, m.evidence_class) as evidence_class,
    r.n_turns as n_turns_recomputed,
    m.n_turns as n_turns_mart
from recomputed as r
full outer join {{ ref('matrix_pass_rates') }} as m
    on
        {{ same_keys('r', 'm', ['cell', 'type', 'evidence_class'], null_safe=['difficulty']) }}
where
    r.cell is null
    or m.cell is null
    or r.n_turns <> m.n_turns
    or r.n_passed <> m.n_passed
