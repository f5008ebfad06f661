{#-
  R16 (what run.json claims): the stored pass_rate, error_share and tasks_graded equal coder-eval's formula
  recomputed from the replicate rows (pass_rate = succeeded / graded, graded = run - not_graded, NULL when
  nothing was graded or measured). Only runs whose writer stored these keys are checked (legacy run.json
  files carry no computed keys). One row per run.json that disagrees.
-#}
with summaries as (
    select * from {{ ref('int_coder_eval__run_recomputed') }}
),

runs as (
    select * from {{ ref('stg_coder_eval__runs') }}
),

checks as (
    select
        r.source_file,
        concat_ws(
            '; ',
            case when r.has_pass_rate_stored and r.pass_rate_stored is distinct from s.pass_rate
                    then 'pass_rate stored ' || coalesce({{ number_text('r.pass_rate_stored') }}, 'null')
                        || ' vs recomputed ' || coalesce({{ number_text('s.pass_rate') }}, 'null')
            end,
            case when r.has_error_share_stored and r.error_share_stored is distinct from s.error_share
                    then 'error_share stored ' || coalesce({{ number_text('r.error_share_stored') }}, 'null')
                        || ' vs recomputed ' || coalesce({{ number_text('s.error_share') }}, 'null')
            end,
            case when r.tasks_graded_stored is not null and r.tasks_graded_stored is distinct from s.tasks_graded
                    then 'tasks_graded stored ' || cast(r.tasks_graded_stored as {{ dbt.type_string() }})
                        || ' vs recomputed ' || coalesce(cast(s.tasks_graded as {{ dbt.type_string() }}), 'null')
            end
        ) as detail
    from runs as r
    left join summaries as s
        on r.run_dir = s.run_dir
)

select
    'R16' as rule_id,
    'coder_eval' as source_family,
    source_file,
    cast(null as bigint) as source_line,
    detail
from checks
where detail <> ''
