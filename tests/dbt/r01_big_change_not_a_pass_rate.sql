-- R01: in the brownfield marts nothing is called a pass rate, and every table holding a change
-- figure also carries its assertion count (change_assertions_total).
-- depends_on: {{ ref('fct_big_runs') }}
-- depends_on: {{ ref('big_rates') }}
-- depends_on: {{ ref('big_awareness_rates') }}
-- depends_on: {{ ref('big_ablation_pairs') }}
with

big_columns as (
    select
        mc.table_name,
        mc.column_name
    from {{ schema_columns_relation('marts') }} as mc
    where
        mc.table_name like '%big%'
        or mc.table_name like 'awareness%'
),

pass_rate_names as (
    select
        table_name,
        column_name,
        'named as a pass rate / success rate / accuracy' as problem
    from big_columns
    where
        column_name like '%pass_rate%'
        or column_name like '%passrate%'
        or column_name like '%success_rate%'
        or column_name like '%accuracy%'
        or column_name like '%solve_rate%'
        or column_name like '%resolved_rate%'
),

change_without_count as (
    select
        table_name,
        'change*' as column_name,
        'change figure without change_assertions_total beside it' as problem
    from big_columns
    group by table_name
    having
        count(case when column_name like 'change%' then 1 end) > 0
        and count(case when column_name = 'change_assertions_total' then 1 end) = 0
)

select * from pass_rate_names
union all
select * from change_without_count
