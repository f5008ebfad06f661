with cases as (
    select
        family,
        case_id,
        p_value
    from {{ ref('stats_p_adjust_cases') }}
),

ranked as (
    select
        family,
        case_id,
        p_value,
        {{ p_adjust_rank('p_value', ['family']) }} as p_rank,
        {{ p_family_size('p_value', ['family']) }} as family_size
    from cases
)

select
    family,
    case_id,
    p_value,
    family_size,
    round({{ p_holm('p_value', 'p_rank', 'family_size', ['family']) }}, 9) as p_holm,
    round({{ p_bh('p_value', 'p_rank', 'family_size', ['family']) }}, 9) as p_bh
from ranked
