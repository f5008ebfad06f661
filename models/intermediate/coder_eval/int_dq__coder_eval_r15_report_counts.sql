{#-
  R15 (what variant.json, experiment.json and suite.json claim): the stored category counts partition the
  total (tasks_* of tasks_run; suite rows_* of rows_total) and the budget counters are sub-counts of
  tasks_failed. These files count folded tasks (variant / experiment) or dataset rows (suite), so they are
  checked against their own totals, not against run.json (that is R21 / R24).
-#}
{%- set summaries = [
    ('variant.json', ref('stg_coder_eval__variants')),
    ('experiment.json variant_aggregates', ref('stg_coder_eval__experiment_variant_aggregates'))
] %}
with variants as (
    {%- for doc, relation in summaries %}
        select
            source_file,
            '{{ doc }}' as doc,
            variant_id as label,
            tasks_run,
            tasks_succeeded,
            tasks_failed,
            tasks_error,
            tasks_not_graded,
            tasks_token_budget_exceeded,
            tasks_cost_budget_exceeded
        from {{ relation }}
        union all
    {%- endfor %}
    select
        source_file,
        'suite.json' as doc,
        suite_id as label,
        rows_total as tasks_run,
        rows_passed as tasks_succeeded,
        rows_failed as tasks_failed,
        rows_error as tasks_error,
        rows_not_graded as tasks_not_graded,
        0 as tasks_token_budget_exceeded,
        0 as tasks_cost_budget_exceeded
    from {{ ref('stg_coder_eval__suites') }}
),

checks as (
    select
        source_file,
        concat_ws(
            '; ',
            case when tasks_succeeded + tasks_failed + tasks_error + coalesce(tasks_not_graded, 0)
                    is distinct from tasks_run
                    then doc || ' ' || coalesce(label, '?') || ': passed+failed+error+not_graded = '
                        || coalesce(cast(
                            tasks_succeeded + tasks_failed + tasks_error + coalesce(tasks_not_graded, 0)
                            as {{ dbt.type_string() }}
                        ), 'null')
                        || ' but total = ' || coalesce(cast(tasks_run as {{ dbt.type_string() }}), 'null')
            end,
            case when coalesce(tasks_token_budget_exceeded, 0) + coalesce(tasks_cost_budget_exceeded, 0) > tasks_failed
                    then doc || ' ' || coalesce(label, '?') || ': budget counters exceed tasks_failed = '
                        || cast(tasks_failed as {{ dbt.type_string() }})
            end
        ) as detail
    from variants
)

select
    {{ dq_finding('R15', 'coder_eval', line=false) }},
    detail
from checks
where detail <> ''
