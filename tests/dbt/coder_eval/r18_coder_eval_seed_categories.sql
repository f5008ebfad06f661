{#- R18: the seed maps exactly coder-eval's nine FinalStatus values; BUILD_FAILED is error and NOT_GRADED is ungraded. -#}
with expected as (
    select * from (values
        ('SUCCESS', 'succeeded'), ('FAILURE', 'failed'), ('TIMEOUT', 'failed'), ('MAX_TURNS_EXHAUSTED', 'failed'),
        ('TOKEN_BUDGET_EXCEEDED', 'failed'), ('COST_BUDGET_EXCEEDED', 'failed'), ('ERROR', 'error'),
        ('BUILD_FAILED', 'error'), ('NOT_GRADED', 'ungraded')
    ) as v (final_status, status_category)
)

select
    coalesce(e.final_status, s.final_status) as final_status,
    e.status_category as expected_category,
    s.status_category as seed_category
from expected as e
full outer join {{ ref('final_status_categories') }} as s
    on e.final_status = s.final_status
where e.status_category is distinct from s.status_category
