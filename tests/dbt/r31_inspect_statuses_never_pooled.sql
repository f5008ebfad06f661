{#-
  R31 (what evalhouse computes): inspect_ai logs of different statuses are never pooled or relabelled. Every row
  of every inspect mart comes from logs of one status and states it: the status of inspect_metrics,
  fct_inspect_samples and inspect_spend rows is the status of the log the row comes from (a killed run is
  `started`, never `success`), and a model comparison pairs two `success` logs only.
-#}
with logs as (select * from {{ ref('int_inspect__logs') }}),

stated as (
    select 'inspect_metrics' as mart, m.source_file, m.status from {{ ref('inspect_metrics') }} as m
    union all
    select 'fct_inspect_samples' as mart, s.source_file, s.status from {{ ref('fct_inspect_samples') }} as s
    union all
    select 'inspect_spend' as mart, p.source_file, p.status from {{ ref('inspect_spend') }} as p
    union all
    select 'inspect_model_pairs' as mart, p.source_file_a as source_file, 'success' as status
    from {{ ref('inspect_model_pairs') }} as p
    union all
    select 'inspect_model_pairs' as mart, p.source_file_b as source_file, 'success' as status
    from {{ ref('inspect_model_pairs') }} as p
)

select
    s.mart,
    s.source_file,
    s.status as status_stated,
    l.status as status_of_log
from stated as s
left join logs as l on s.source_file = l.source_file
where s.status is null or l.status is distinct from s.status
