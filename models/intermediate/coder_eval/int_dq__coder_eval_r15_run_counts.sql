{#-
  R15 (what run.json claims): tasks_succeeded + tasks_failed + tasks_error + tasks_not_graded = tasks_run, the
  budget counters are sub-counts of tasks_failed, and every stored count equals the count recomputed from the
  replicate rows. One row per run.json that breaks any of these.
-#}
with runs as (
    select * from {{ ref('stg_coder_eval__runs') }}
),

recomputed as (
    select * from {{ ref('int_coder_eval__run_recomputed') }}
),

checks as (
    select
        r.source_file,
        concat_ws(
            '; ',
            case when r.tasks_succeeded + r.tasks_failed + r.tasks_error + r.tasks_not_graded
                    is distinct from r.tasks_run
                    then 'stored succeeded+failed+error+not_graded = '
                        || cast(r.tasks_succeeded + r.tasks_failed + r.tasks_error + r.tasks_not_graded as {{ dbt.type_string() }})
                        || ' but tasks_run = ' || coalesce(cast(r.tasks_run as {{ dbt.type_string() }}), 'null')
            end,
            case when r.tasks_token_budget_exceeded + r.tasks_cost_budget_exceeded > r.tasks_failed
                    then 'budget counters (' || cast(r.tasks_token_budget_exceeded as {{ dbt.type_string() }}) || '+'
                        || cast(r.tasks_cost_budget_exceeded as {{ dbt.type_string() }}) || ') exceed tasks_failed = '
                        || cast(r.tasks_failed as {{ dbt.type_string() }})
            end,
            {%- for col in ['tasks_run', 'tasks_succeeded', 'tasks_failed', 'tasks_error', 'tasks_not_graded',
                            'tasks_token_budget_exceeded', 'tasks_cost_budget_exceeded'] %}
                case when r.{{ col }} is distinct from coalesce(c.{{ col }}, 0)
                        then '{{ col }} stored ' || coalesce(cast(r.{{ col }} as {{ dbt.type_string() }}), 'null')
                            || ' vs recomputed ' || coalesce(cast(c.{{ col }} as {{ dbt.type_string() }}), '0')
                end,
            {%- endfor %}
            case when r.has_tasks_measured and r.tasks_measured is distinct from coalesce(c.tasks_measured, 0)
                    then 'tasks_measured stored ' || cast(r.tasks_measured as {{ dbt.type_string() }})
                        || ' vs recomputed ' || coalesce(cast(c.tasks_measured as {{ dbt.type_string() }}), '0')
            end
        ) as detail
    from runs as r
    left join recomputed as c
        on r.run_dir = c.run_dir
)

select
    'R15' as rule_id,
    'coder_eval' as source_family,
    source_file,
    cast(null as bigint) as source_line,
    detail
from checks
where detail <> ''
