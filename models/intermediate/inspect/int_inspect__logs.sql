{#-
  One row per inspect_ai log file: its header (a finished log) or, when the run never finished (killed: no
  header.json), its journal start, with the status the log states and 'started' for the killed run; the sample
  counts from its sample members (a sample is one id; an epoch of it is one sample member). `model` is inspect's
  own name (provider/model); `model_normalised` the rate card's key for it (model_aliases), the `model` of the
  inspect marts.
-#}
with logs as (
    select
        l.*,
        row_number() over (partition by l.source_file order by case when l.member_kind = 'header' then 0 else 1 end)
            as pick
    from {{ ref('stg_inspect__logs') }} as l
),

names as {{ model_name_map('logs', 'model', ref('model_aliases')) }},

samples as (
    select
        s.source_file,
        count(*) as n_sample_epochs,
        count(distinct s.sample_id) as n_samples,
        count(case when s.error_message is not null then 1 end) as n_sample_epochs_errored,
        count(distinct case when s.error_message is not null then s.sample_id end) as n_samples_errored,
        count(case when s.limit_type is not null then 1 end) as n_sample_epochs_limited
    from {{ ref('stg_inspect__samples') }} as s
    group by s.source_file
)

select
    l.source_file,
    l.log_format,
    coalesce(l.status, 'started') as status,
    l.member_kind = 'header' as has_header,
    l.eval_id,
    l.run_id,
    l.task,
    l.task_id,
    l.task_version,
    l.task_args_json,
    l.model,
    n.model as model_normalised,
    l.created_at,
    l.epochs,
    l.score_on_error,
    l.log_samples,
    l.dataset_samples,
    l.inspect_version,
    l.total_samples_stored,
    l.completed_samples_stored,
    l.error_message,
    l.model_usage_json,
    l.role_usage_json,
    coalesce(s.n_sample_epochs, 0) as n_sample_epochs,
    coalesce(s.n_samples, 0) as n_samples,
    coalesce(s.n_sample_epochs_errored, 0) as n_sample_epochs_errored,
    coalesce(s.n_samples_errored, 0) as n_samples_errored,
    coalesce(s.n_sample_epochs_limited, 0) as n_sample_epochs_limited,
    l.load_id
from logs as l
left join samples as s on l.source_file = s.source_file
left join names as n on l.model = n.model_raw
where l.pick = 1
