with cases as (
    select
        case_id,
        b,
        c
    from {{ ref('stats_mcnemar_cases') }}
)

select
    case_id,
    b,
    c,
    round({{ mcnemar_exact_p('b', 'c') }}, 9) as mcnemar_p
from cases
