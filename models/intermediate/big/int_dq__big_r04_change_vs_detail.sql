{#-
  R04 (what the logs claim): `change` equals the passed share of `change_detail` within the
  log's rounding (0.005). One row per fix / refactor / other graded run that disagrees, or that
  carries a `change` without any assertion list to audit it. Awareness runs are graded on answer
  text (F1), not on the list's passed share, and are not checked.
-#}
with

runs as (select * from {{ ref('int_big__runs') }})

select
    {{ dq_finding('R04', 'big') }},
    case
        when coalesce(change_assertions_total, 0) = 0
            then 'change = ' || cast(change as {{ dbt.type_string() }}) || ' but change_detail has no assertions'
        else 'change = ' || cast(change as {{ dbt.type_string() }}) || ' but change_detail passes '
            || cast(change_assertions_passed as {{ dbt.type_string() }}) || '/' || cast(change_assertions_total as {{ dbt.type_string() }})
            || ' = ' || cast(round(assertion_pass_share, 4) as {{ dbt.type_string() }})
    end as detail
from runs
where
    change is not null
    and kind is distinct from 'awareness'
    and (
        coalesce(change_assertions_total, 0) = 0
        or abs(change - assertion_pass_share) > 0.005
    )
