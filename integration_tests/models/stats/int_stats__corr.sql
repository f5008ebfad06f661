with cases as (
    select
        group_id,
        x,
        y
    from {{ ref('stats_corr_cases') }}
)

select
    group_id,
    count(*) as n_pairs,
    round({{ corr('x', 'y') }}, 9) as pearson_r
from cases
group by group_id
