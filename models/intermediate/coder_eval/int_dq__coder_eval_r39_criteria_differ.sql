{#-
  R39 (what the run directory claims): one row per task.json of a task that its run graded by more than one set of
  success criteria. coder-eval gives every variant and replicate of a task the same criteria; `coder-eval evaluate
  <task file> <replicate dir>` regrades one replicate by another task file's and refreshes run.json, and
  `coder-eval run --resume` runs the remaining replicates by the task file as it is now, so the run's
  rates and comparisons that count the task pool two instruments (int_coder_eval__replicates.is_task_criteria_mixed).
  The finding names the criteria this record was graded by and how many of the task's graded records share them.
-#}
with replicates as (select * from {{ ref('int_coder_eval__replicates') }}),

tasks as (select * from {{ ref('stg_coder_eval__tasks') }}),

declared as (select * from {{ ref('stg_coder_eval__declared_criteria') }}),

mixed as (
    select t.*
    from tasks as t
    inner join replicates as r
        on
            {{ coder_eval_same_replicate('t', 'r') }}
    -- the records whose criteria ran (as int_coder_eval__replicates counts them)
    where r.is_task_criteria_mixed and t.success_criteria_json is not null and t.n_success_criteria > 0
),

criteria_names as (
    select
        {{ coder_eval_replicate_identity('d') }},
        count(*) as n_criteria,
        {{ ordered_string_agg("coalesce(d.criterion_description, d.criterion_type, '?')", ', ', 'd.criterion_index') }}
            as criteria
    from declared as d
    group by d.run_dir, d.run_id, d.variant_id, d.task_id, d.replicate_index
),

sharing as (
    select
        run_dir,
        task_id,
        success_criteria_json,
        count(*) as n_sharing
    from mixed
    group by run_dir, task_id, success_criteria_json
),

task_totals as (
    select
        run_dir,
        task_id,
        count(*) as n_stating,
        count(distinct success_criteria_json) as n_criteria_sets
    from mixed
    group by run_dir, task_id
)

select
    {{ dq_finding('R39', 'coder_eval', 'm', line=false) }},
    'variant ' || m.variant_id || ', task ' || m.task_id || ', replicate '
    || coalesce(cast(m.replicate_index as {{ dbt.type_string() }}), '?')
    || ': graded by ' || cast(coalesce(c.n_criteria, 0) as {{ dbt.type_string() }}) || ' success criteria ('
    || coalesce(c.criteria, 'none') || ') resolved from ' || coalesce(m.task_config_source_file, 'an unnamed task file')
    || ', shared by ' || cast(s.n_sharing as {{ dbt.type_string() }}) || ' of the task''s '
    || cast(tt.n_stating as {{ dbt.type_string() }}) || ' graded records in this run, which were graded by '
    || cast(tt.n_criteria_sets as {{ dbt.type_string() }}) || ' different sets of criteria'
    || '; every rate of the run that counts the task pools them (run.json too); regrade every replicate of the task'
    || ' with one task file (`coder-eval evaluate <task file> <replicate dir>`, which needs its workspace), or run the'
    || ' task again into a new --run-dir, then load again' as detail
from mixed as m
inner join sharing as s
    on
        m.run_dir = s.run_dir
        and m.task_id = s.task_id
        and m.success_criteria_json = s.success_criteria_json
inner join task_totals as tt
    on
        m.run_dir = tt.run_dir
        and m.task_id = tt.task_id
left join criteria_names as c
    on
        {{ coder_eval_same_replicate('m', 'c') }}
