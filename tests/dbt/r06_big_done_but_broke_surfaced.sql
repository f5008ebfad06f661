-- R06: a run with change = 1.0 and regress < 1.0 ("task done, application broken") is surfaced
-- explicitly: flagged as a row in fct_big_runs (recomputed here) and counted per stratum in
-- big_rates / big_awareness_rates, never averaged away.
with

runs as (select * from {{ ref('fct_big_runs') }}),

bad_rows as (
    select
        'fct_big_runs' as mart,
        run_key as row_key,
        cast(done_but_broke as {{ dbt.type_string() }}) as stored,
        cast((change = 1.0 and regress < 1.0) as {{ dbt.type_string() }}) as recomputed
    from runs
    where done_but_broke is distinct from (change = 1.0 and regress < 1.0)
),

counts as (
    select
        kind,
        model,
        with_brain,
        with_plan,
        count(case when change = 1.0 and regress < 1.0 then 1 end) as n_done_but_broke
    from runs
    group by kind, model, with_brain, with_plan
),

rate_rows as (
    select 'big_rates' as mart, kind, model, with_brain, with_plan, n_done_but_broke
    from {{ ref('big_rates') }}
    union all
    select 'big_awareness_rates' as mart, kind, model, with_brain, with_plan, n_done_but_broke
    from {{ ref('big_awareness_rates') }}
),

bad_counts as (
    select
        rate_rows.mart,
        concat_ws('|', rate_rows.kind, rate_rows.model, rate_rows.with_brain, rate_rows.with_plan) as row_key,
        cast(rate_rows.n_done_but_broke as {{ dbt.type_string() }}) as stored,
        cast(counts.n_done_but_broke as {{ dbt.type_string() }}) as recomputed
    from rate_rows
    left join counts
        on
            {{ same_keys('rate_rows', 'counts', [], null_safe=['kind', 'model', 'with_brain', 'with_plan']) }}
    where rate_rows.n_done_but_broke is distinct from counts.n_done_but_broke
)

select * from bad_rows
union all
select * from bad_counts
