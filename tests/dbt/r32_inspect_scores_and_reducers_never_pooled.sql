{#-
  R32 (what evalhouse computes): inspect_ai scores and reducers are never pooled. Every inspect_metrics row and
  every inspect_model_pairs row is one (score, scorer, reducer) the log states results for (a scorer's value, or
  one key of a dict-valued scorer), and a metric row never counts more scored samples than the log attempted.
-#}
with stated as (
    select distinct
        m.source_file,
        m.score_name,
        m.scorer,
        m.reducer
    from {{ ref('stg_inspect__metrics') }} as m
),

rows_ as (
    select
        'inspect_metrics' as mart,
        m.source_file,
        m.score_name,
        m.scorer,
        m.reducer,
        m.n_samples_scored > m.n_samples_attempted as counts_more_than_attempted
    from {{ ref('inspect_metrics') }} as m
    union all
    select
        'inspect_model_pairs' as mart,
        p.source_file_a as source_file,
        p.score_name,
        p.scorer,
        p.reducer,
        false as counts_more_than_attempted
    from {{ ref('inspect_model_pairs') }} as p
    union all
    select
        'inspect_model_pairs' as mart,
        p.source_file_b as source_file,
        p.score_name,
        p.scorer,
        p.reducer,
        false as counts_more_than_attempted
    from {{ ref('inspect_model_pairs') }} as p
)

select
    r.mart,
    r.source_file,
    r.score_name,
    r.scorer,
    r.reducer,
    r.counts_more_than_attempted
from rows_ as r
left join stated as s
    on
        {{ same_keys('r', 's', ['source_file', 'score_name', 'scorer'], null_safe=['reducer']) }}
where s.source_file is null or r.counts_more_than_attempted
