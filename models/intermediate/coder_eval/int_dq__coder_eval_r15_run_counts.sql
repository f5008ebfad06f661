{#-
  R15 (what run.json claims): tasks_succeeded + tasks_failed + tasks_error + tasks_not_graded = tasks_run, the
  budget counters are sub-counts of tasks_failed, and every stored count equals the count recomputed from the
  replicate rows. One row per run.json that breaks any of these.
-#}
with runs as (select * from {{ ref('stg_coder_eval__runs') }}),

recomputed as (select * from {{ ref('int_coder_eval__run_recomputed') }}),

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
                {{ stored_vs_recomputed(col, 'r.' ~ col, 'coalesce(c.' ~ col ~ ', 0)') }},
            {%- endfor %}
            {{ stored_vs_recomputed('tasks_measured', 'r.tasks_measured', 'coalesce(c.tasks_measured, 0)',
                                    when='r.has_tasks_measured') }}
        ) as detail
    from runs as r
    left join recomputed as c
        on r.run_dir = c.run_dir
)

select
    {{ dq_finding('R15', 'coder_eval', line=false) }},
    detail
from checks
where detail <> ''
