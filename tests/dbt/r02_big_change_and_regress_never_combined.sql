-- R02: change and regress are reported separately; no brownfield mart column combines them into
-- one score (a name mentioning both, or a combined / overall / composite score).
-- depends_on: {{ ref('fct_big_runs') }}
-- depends_on: {{ ref('big_rates') }}
-- depends_on: {{ ref('big_awareness_rates') }}
-- depends_on: {{ ref('big_ablation_pairs') }}
select
    lower(table_name) as table_name,
    lower(column_name) as column_name
from information_schema.columns
where
    lower(table_schema) = 'marts'
    and table_catalog = '{{ target.database }}'
    and (
        lower(table_name) like '%big%'
        or lower(table_name) like 'awareness%'
    )
    and (
        (lower(column_name) like '%change%' and lower(column_name) like '%regress%')
        or lower(column_name) like '%combined%'
        or lower(column_name) like '%overall%'
        or lower(column_name) like '%composite%'
        or lower(column_name) like '%total_score%'
        or lower(column_name) in ('score', 'score_mean', 'mean_score')
    )
