{#-
  R28 (what the logs claim): one row per metric an inspect_ai log stores (accuracy, mean, stderr, std, var; each
  group of a grouped metric and its whole, the mean of the group values too) that differs from the same metric
  recomputed from the log's own reduced per-sample values by more than 1e-9 (relative; 1e-12 absolute near 0), or
  that cannot be recomputed because the log holds no reduced values for it, or that is NaN on one side only. The same
  value on both sides agrees, an infinity or a NaN too (a score of inf gives a mean of inf, and a stderr of NaN).
-#}
with metrics as (
    select * from {{ ref('int_inspect__metrics') }}
    where is_recomputed
)

select
    {{ dq_finding('R28', 'inspect', 'm', line=false) }},
    'stored ' || m.metric
    || case
        when m.grouped_by is not null and m.metric_base is null
            then ' (the mean of the ' || m.grouped_metric || ' of each group of samples by ' || m.grouped_by || ')'
        when m.grouped_by is not null
            then ' (' || m.metric_base || coalesce(' of the samples whose ' || m.grouped_by || ' is ' || m.group_name, ' of every sample') || ')'
        else ''
    end
    || ' of ' || m.score_name || coalesce(' (' || m.reducer || ')', '') || ' is '
    || coalesce({{ number_text('m.value_stored') }}, 'null') || ', its samples give '
    || coalesce({{ number_text('m.value_recomputed') }}, 'nothing (no reduced values)')
    || ': quote inspect_metrics.value_recomputed, and check how the log was written' as detail
from metrics as m
where
    m.value_recomputed is null
    or m.value_stored is null
    or (
        -- the same value (both engines read NaN = NaN as true, and inf = inf) agrees
        not m.value_stored = m.value_recomputed
        and (
            abs(m.value_stored - m.value_recomputed) > 1e-9 * greatest(abs(m.value_stored), abs(m.value_recomputed), 1e-3)
            -- a NaN or an infinity on one side only (no comparison with NaN is true)
            or isnan(m.value_stored - m.value_recomputed)
        )
    )
