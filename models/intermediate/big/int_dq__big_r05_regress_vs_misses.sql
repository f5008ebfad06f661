{#-
  R05 (what the logs claim): for a non-null `regress`, `regress = 1.0` exactly when
  `regress_misses` is empty. One row per run that disagrees (or has no misses list at all).
-#}
with

runs as (select * from {{ ref('int_big__runs') }})

select
    {{ dq_finding('R05', 'big') }},
    case
        when regress_miss_count is null
            then 'regress = ' || cast(regress as {{ dbt.type_string() }}) || ' but regress_misses is absent'
        else 'regress = ' || cast(regress as {{ dbt.type_string() }}) || ' but regress_misses names '
            || cast(regress_miss_count as {{ dbt.type_string() }}) || ' page(s)'
    end as detail
from runs
where
    regress is not null
    and (
        regress_miss_count is null
        or (regress = 1.0) <> (regress_miss_count = 0)
    )
