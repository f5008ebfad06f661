with cases as (
    select
        case_id,
        se
    from {{ ref('stats_mdd_cases') }}
)

select
    case_id,
    se,
    round({{ min_detectable_difference('se') }}, 9) as mdd_default,
    round({{ min_detectable_difference('se', alpha=0.01, power=0.9) }}, 9) as mdd_a01_p90,
    round({{ min_detectable_difference('se', alpha=0.1, power=0.5) }}, 9) as mdd_a10_p50,
    round({{ mean_ci_low('se', 'se', lower=none, upper=none) }}, 9) as unclipped_ci_low
from cases
