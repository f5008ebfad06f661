{#-
  R36 (what the logs claim): one row per finished inspect_ai log (it has a header) that holds no sample record
  though it ran samples: written with log_samples=False, or whose header states samples run (results.total_samples)
  with none in the file. evalhouse reads spend, cost and its own metrics from the samples, so nothing of such a log
  is in them but its header: the finding says so, with the usage its header states, and what to do.
-#}
with logs as (select * from {{ ref('int_inspect__logs') }})

select
    {{ dq_finding('R36', 'inspect', 'l', line=false) }},
    'the log holds no sample record'
    || case when not l.log_samples then ' (written with log_samples=False)' else '' end
    || coalesce(' though its header states ' || {{ number_text('l.total_samples_stored') }} || ' samples run', '')
    || ': its spend (header stats.model_usage: ' || coalesce(l.model_usage_json, 'none stated')
    || ') is in no spend or cost figure, and its stored metrics are not taken again from samples'
    || '; quote the header''s usage and metrics as unchecked, or run it again with log_samples=True' as detail
from logs as l
where l.has_header and l.n_sample_epochs = 0 and (not l.log_samples or l.total_samples_stored > 0)
