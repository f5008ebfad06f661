with cases as (
    select
        case_id,
        k,
        n
    from {{ ref('stats_wilson_cases') }}
)

select
    case_id,
    k,
    n,
    round({{ wilson_low('k', 'n') }}, 9) as wilson_low,
    round({{ wilson_high('k', 'n') }}, 9) as wilson_high
from cases
