{#-
  R16 (what run.json claims): the stored pass_rate, error_share and tasks_graded equal coder-eval's formula
  recomputed from the replicate rows (pass_rate = succeeded / graded, graded = run - not_graded, NULL when
  nothing was graded or measured). Only runs whose writer stored these keys are checked (legacy run.json
  files carry no computed keys). One row per run.json that disagrees.
-#}
with summaries as (select * from {{ ref('int_coder_eval__run_recomputed') }}),

runs as (select * from {{ ref('stg_coder_eval__runs') }}),

checks as (
    select
        r.source_file,
        concat_ws(
            '; ',
            {{ stored_vs_recomputed('pass_rate', 'r.pass_rate_stored', 's.pass_rate', when='r.has_pass_rate_stored',
                                    number=true) }},
            {{ stored_vs_recomputed('error_share', 'r.error_share_stored', 's.error_share',
                                    when='r.has_error_share_stored', number=true) }},
            {{ stored_vs_recomputed('tasks_graded', 'r.tasks_graded_stored', 's.tasks_graded',
                                    when='r.tasks_graded_stored is not null') }}
        ) as detail
    from runs as r
    left join summaries as s
        on r.run_dir = s.run_dir
)

select
    {{ dq_finding('R16', 'coder_eval', line=false) }},
    detail
from checks
where detail <> ''
