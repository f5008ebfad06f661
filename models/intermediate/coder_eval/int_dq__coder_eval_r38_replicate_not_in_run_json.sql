{#-
  R38 (what the run directory claims): one row per task.json that its run's run.json does not list. coder-eval never
  clears a --run-dir: a second `coder-eval run` into it overwrites the replicates it runs again and leaves the rest
  of the earlier run's task.json files beside its own run.json. Such a file is no replicate of the run
  (int_coder_eval__replicates keeps the ones run.json lists), so it is in no rate; the finding names it.
-#}
with tasks as (select * from {{ ref('stg_coder_eval__tasks') }}),

run_rows as (select * from {{ ref('stg_coder_eval__run_task_results') }}),

listed as (
    select
        run_dir,
        count(*) as n_listed
    from run_rows
    group by run_dir
)

select
    {{ dq_finding('R38', 'coder_eval', 't', line=false) }},
    'variant ' || t.variant_id || ', task ' || t.task_id || ', replicate '
    || coalesce(cast(t.replicate_index as {{ dbt.type_string() }}), '?')
    || ': this task.json is not among the ' || cast(coalesce(l.n_listed, 0) as {{ dbt.type_string() }})
    || ' replicates that ' || t.run_dir || '/run.json lists (a file left by an earlier run into the same run'
    || ' directory, whose own run.json the later run overwrote); it is counted in no rate; give each run its own'
    || ' --run-dir (coder-eval does not clear one), and move or delete such files' as detail
from tasks as t
left join listed as l
    on t.run_dir = l.run_dir
where not exists (
        select 1
        from run_rows as r
        where
            {{ coder_eval_same_replicate('t', 'r') }}
    )
