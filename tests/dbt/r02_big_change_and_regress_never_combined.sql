-- R02: change and regress are reported separately; no brownfield mart column combines them into
-- one score (a name mentioning both, or a combined / overall / composite score).
-- depends_on: {{ ref('fct_big_runs') }}
-- depends_on: {{ ref('big_rates') }}
-- depends_on: {{ ref('big_awareness_rates') }}
-- depends_on: {{ ref('big_ablation_pairs') }}
select
    mc.table_name,
    mc.column_name
from {{ schema_columns_relation('marts') }} as mc
where
    (
        mc.table_name like '%big%'
        or mc.table_name like 'awareness%'
    )
    and (
        (mc.column_name like '%change%' and mc.column_name like '%regress%')
        or mc.column_name like '%combined%'
        or mc.column_name like '%overall%'
        or mc.column_name like '%composite%'
        or mc.column_name like '%total_score%'
        or mc.column_name in ('score', 'score_mean', 'mean_score')
    )
