{#-
  R35 (what the logs claim): one row per (pair of finished inspect_ai logs of one task with the same arguments,
  scorer both logs state) whose instruments differ, so that inspect_model_pairs does not compare the two logs' scores
  of that scorer (or, where only the epochs differ, compares only its mean and pass_at_k): the task version, the
  scorer's arguments, the models it called while scoring (a grader), the number of epochs, and the samples' targets
  (a sample of one id whose target differs is another item). The finding is on the log recorded first; its detail
  names the other log and what differs.
-#}
with logs as (
    select * from {{ ref('int_inspect__logs') }}
    where status = 'success'
),

log_pairs as (
    select
        a.source_file,
        b.source_file as other_file,
        a.task_version,
        b.task_version as other_task_version,
        a.epochs,
        b.epochs as other_epochs
    from logs as a
    inner join logs as b
        on
            {{ same_keys('a', 'b', ['task'], null_safe=['task_args_json']) }}
            and (a.created_at < b.created_at or (a.created_at = b.created_at and a.source_file < b.source_file))
),

targets as (
    select distinct
        e.source_file,
        e.sample_id,
        e.target
    from {{ ref('int_inspect__sample_executions') }} as e
),

-- per pair of logs, the samples of one id whose targets differ
edited as (
    select
        p.source_file,
        p.other_file,
        count(*) as n_edited,
        min(a.sample_id) as first_edited
    from log_pairs as p
    inner join targets as a on p.source_file = a.source_file
    inner join targets as b on p.other_file = b.source_file and a.sample_id = b.sample_id
    where a.target is distinct from b.target
    group by p.source_file, p.other_file
),

scorers as (select * from {{ ref('int_inspect__scorer_instruments') }}),

differing as (
    select
        p.source_file,
        p.other_file,
        a.scorer,
        {{ here_and_there('the task version is', 'p.task_version', 'p.other_task_version', 'not stated') }}
            as version_diff,
        case
            when e.n_edited > 0
                then '; ' || cast(e.n_edited as {{ dbt.type_string() }}) || ' sample(s) of one id have another target there'
                    || ' (first: ' || e.first_edited || ')'
        end as target_diff,
        {{ here_and_there('its arguments are', 'a.scorer_options_json', 'b.scorer_options_json', 'not stated') }}
            as options_diff,
        {{ here_and_there('it called', 'a.scorer_models', 'b.scorer_models', 'no model') }} as models_diff,
        {{ here_and_there('epochs:', 'cast(p.epochs as ' ~ dbt.type_string() ~ ')',
                          'cast(p.other_epochs as ' ~ dbt.type_string() ~ ')', 'not stated') }} as epochs_diff
    from log_pairs as p
    inner join scorers as a on p.source_file = a.source_file
    inner join scorers as b on p.other_file = b.source_file and a.scorer = b.scorer
    left join edited as e on p.source_file = e.source_file and p.other_file = e.other_file
)

select
    {{ dq_finding('R35', 'inspect', 'd', line=false) }},
    'scorer ' || d.scorer || ' measured this log and ' || d.other_file || ' with different instruments, so '
    || case
        when coalesce(d.version_diff, d.target_diff, d.options_diff, d.models_diff) is null
            then 'only its mean and pass_at_k reducers are compared'
        else 'its scores are not compared'
    end
    || coalesce(d.version_diff, '') || coalesce(d.target_diff, '') || coalesce(d.options_diff, '')
    || coalesce(d.models_diff, '') || coalesce(d.epochs_diff, '')
    || ': to compare the models, run both on the same samples with the same task version, scorer arguments, grader'
    || ' and epochs' as detail
from differing as d
where coalesce(d.version_diff, d.target_diff, d.options_diff, d.models_diff, d.epochs_diff) is not null
