{#-
  One row per (inspect_ai log, sample, epoch): the run of the sample it records. inspect_ai gives each run of a
  sample a uuid, and a log can record a run that another log recorded first: eval_retry and eval_set's retries
  carry the finished samples of a failed log into the new log, and `inspect score` writes a rescored copy. The
  run's first record is the one in the log created first (ties: the file's name); every later record of it is
  carried over, so the run's tokens and cost are counted once, in the log where it ran. A sample without a uuid
  (older inspect_ai) is a run of its own. `target` is the sample's target as the log states it: two logs' samples of
  one id are the same item only where their targets agree (R35).
-#}
with keyed as (
    select
        s.source_file,
        s.sample_id,
        s.epoch,
        s.sample_uuid,
        s.target,
        l.created_at,
        s.source_file || '|' || s.sample_id || '|' || cast(s.epoch as {{ dbt.type_string() }}) as unit_key
    from {{ ref('stg_inspect__samples') }} as s
    inner join {{ ref('int_inspect__logs') }} as l on s.source_file = l.source_file
),

ranked as (
    select
        k.sample_uuid,
        k.unit_key,
        k.source_file,
        row_number() over (partition by k.sample_uuid order by k.created_at asc nulls last, k.source_file asc) as run_order
    from keyed as k
    where k.sample_uuid is not null
),

-- the row that recorded each run first
firsts as (
    select
        r.sample_uuid,
        r.unit_key as run_unit_key,
        r.source_file as run_source_file
    from ranked as r
    where r.run_order = 1
)

select
    k.source_file,
    k.sample_id,
    k.epoch,
    k.sample_uuid,
    k.target,
    k.unit_key,
    coalesce(f.run_unit_key, k.unit_key) as run_unit_key,
    coalesce(f.run_source_file <> k.source_file, false) as is_carried_over,
    case when f.run_source_file <> k.source_file then f.run_source_file end as carried_over_from
from keyed as k
left join firsts as f on k.sample_uuid = f.sample_uuid
