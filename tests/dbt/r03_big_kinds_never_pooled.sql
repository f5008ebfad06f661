-- R03: awareness (answer-text F1) is never pooled with fix / refactor: big_rates holds only fix and
-- refactor rows, big_awareness_rates only awareness rows, and every row's run count equals the runs
-- of exactly its own (kind, model, with_brain, with_plan) stratum in fct_big_runs.
with

runs as (
    select
        kind,
        model,
        with_brain,
        with_plan,
        count(*) as n_runs
    from {{ ref('fct_big_runs') }}
    group by kind, model, with_brain, with_plan
),

rate_rows as (
    select
        'big_rates' as mart,
        kind,
        model,
        with_brain,
        with_plan,
        n_runs,
        coalesce(kind in ('fix', 'refactor'), false) as kind_allowed
    from {{ ref('big_rates') }}
    union all
    select
        'big_awareness_rates' as mart,
        kind,
        model,
        with_brain,
        with_plan,
        n_runs,
        coalesce(kind = 'awareness', false) as kind_allowed
    from {{ ref('big_awareness_rates') }}
)

select
    rate_rows.mart,
    rate_rows.kind,
    rate_rows.model,
    rate_rows.with_brain,
    rate_rows.with_plan,
    rate_rows.n_runs,
    runs.n_runs as n_runs_of_stratum
from rate_rows
left join runs
    on
        {{ same_keys('rate_rows', 'runs', [], null_safe=['kind', 'model', 'with_brain', 'with_plan']) }}
where
    not rate_rows.kind_allowed
    or runs.n_runs is null
    or rate_rows.n_runs <> runs.n_runs
