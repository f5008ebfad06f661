-- R17: coder_eval_variant_rates.average_score counts an errored (or unscored graded) replicate as 0.0,
-- leaves ungraded replicates out of both sides, and is NULL when nothing was measured.
-- Recomputed independently from fct_coder_eval_replicates' raw weighted_score and status_category.
with expected as (
    select
        r.run_id,
        r.variant_id,
        r.system_prompt_regime,
        case
            when
                sum(case when r.status_category = 'ungraded' then 1 else 0 end) > 0
                and sum(case when r.weighted_score is not null then 1 else 0 end) = 0
                then null
            when sum(case when r.status_category <> 'ungraded' then 1 else 0 end) = 0 then null
            else
                sum(case when r.status_category <> 'ungraded' then coalesce(r.weighted_score, 0.0) else 0.0 end)
                / sum(case when r.status_category <> 'ungraded' then 1 else 0 end)
        end as expected_average_score
    from {{ ref('fct_coder_eval_replicates') }} as r
    group by r.run_id, r.variant_id, r.system_prompt_regime
)

select
    v.run_id,
    v.variant_id,
    v.system_prompt_regime,
    v.average_score,
    e.expected_average_score
from {{ ref('coder_eval_variant_rates') }} as v
inner join expected as e
    on
        {{ same_keys('v', 'e', ['run_id', 'variant_id'], null_safe=['system_prompt_regime']) }}
where not coalesce({{ coder_eval_variant_same('v.average_score', 'e.expected_average_score') }}, false)
