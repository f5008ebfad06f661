{#-
  R35 (what the logs claim): one row per (pair of finished inspect_ai logs of one task with the same arguments,
  scorer both logs state) whose instruments differ, so that inspect_model_pairs does not compare the two logs' scores
  of that scorer (or, where only the epochs differ, compares only its mean and pass_at_k): the task version, the
  scorer's arguments, the models it called while scoring (a grader), the number of epochs. The finding is on the log
  recorded first; its detail names the other log and what differs.
-#}
with logs as (
    select * from {{ ref('int_inspect__logs') }}
    where status = 'success'
),

arms as (
    select
        l.source_file,
        l.task,
        l.task_args_json,
        l.task_version,
        l.epochs,
        l.created_at,
        i.scorer,
        i.scorer_options_json,
        i.scorer_models
    from logs as l
    inner join {{ ref('int_inspect__scorer_instruments') }} as i on l.source_file = i.source_file
),

differing as (
    select
        a.source_file,
        b.source_file as other_file,
        a.scorer,
        case when a.task_version is distinct from b.task_version then
            '; the task version is ' || coalesce(a.task_version, 'not stated') || ' here, '
            || coalesce(b.task_version, 'not stated') || ' there'
        end as version_diff,
        case when a.scorer_options_json is distinct from b.scorer_options_json then
            '; its arguments are ' || coalesce(a.scorer_options_json, 'not stated') || ' here, '
            || coalesce(b.scorer_options_json, 'not stated') || ' there'
        end as options_diff,
        case when a.scorer_models is distinct from b.scorer_models then
            '; it called ' || coalesce(a.scorer_models, 'no model') || ' here, '
            || coalesce(b.scorer_models, 'no model') || ' there'
        end as models_diff,
        case when a.epochs is distinct from b.epochs then
            '; ' || coalesce(cast(a.epochs as {{ dbt.type_string() }}), 'no') || ' epochs here, '
            || coalesce(cast(b.epochs as {{ dbt.type_string() }}), 'no') || ' there'
        end as epochs_diff
    from arms as a
    inner join arms as b
        on
            {{ same_keys('a', 'b', ['task', 'scorer'], null_safe=['task_args_json']) }}
            and (a.created_at < b.created_at or (a.created_at = b.created_at and a.source_file < b.source_file))
)

select
    {{ dq_finding('R35', 'inspect', 'd', line=false) }},
    'scorer ' || d.scorer || ' measured this log and ' || d.other_file || ' with different instruments, so '
    || case
        when d.version_diff is null and d.options_diff is null and d.models_diff is null
            then 'only its mean and pass_at_k reducers are compared'
        else 'its scores are not compared'
    end
    || coalesce(d.version_diff, '') || coalesce(d.options_diff, '') || coalesce(d.models_diff, '')
    || coalesce(d.epochs_diff, '')
    || ': to compare the models, run both with the same task version, scorer arguments, grader and epochs' as detail
from differing as d
where coalesce(d.version_diff, d.options_diff, d.models_diff, d.epochs_diff) is not null
