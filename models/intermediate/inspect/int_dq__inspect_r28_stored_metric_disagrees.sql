{#-
  R28 (what the logs claim): one row per metric an inspect_ai log stores (accuracy, mean, stderr) that differs
  from the same metric recomputed from the log's own reduced per-sample values by more than 1e-9 (relative),
  or that cannot be recomputed because the log holds no reduced values for it.
-#}
with stored as (
    select * from {{ ref('stg_inspect__metrics') }}
    where metric in ('accuracy', 'mean', 'stderr')
),

recomputed as (
    select * from {{ ref('int_inspect__metrics_recomputed') }}
),

compared as (
    select
        s.source_file,
        s.score_name,
        s.reducer,
        s.metric,
        s.value_stored,
        case when s.metric = 'stderr' then r.stderr_recomputed else r.mean_recomputed end as value_recomputed
    from stored as s
    left join recomputed as r
        on
            s.source_file = r.source_file
            and s.scorer = r.scorer
            and s.reducer is not distinct from r.reducer
)

select
    'R28' as rule_id,
    'inspect' as source_family,
    c.source_file,
    cast(null as bigint) as source_line,
    'stored ' || c.metric || ' of ' || c.score_name || coalesce(' (' || c.reducer || ')', '') || ' is '
    || coalesce(cast(c.value_stored as varchar), 'null') || ', its samples give '
    || coalesce(cast(c.value_recomputed as varchar), 'nothing (no reduced values)')
    || ': quote inspect_metrics.value_recomputed, and check how the log was written' as detail
from compared as c
where
    c.value_recomputed is null
    or c.value_stored is null
    or abs(c.value_stored - c.value_recomputed) > 1e-9 * greatest(abs(c.value_stored), abs(c.value_recomputed), 1e-300)
