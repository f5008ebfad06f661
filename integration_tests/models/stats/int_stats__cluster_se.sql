with clusters as (
    select
        stratum,
        cluster_id,
        cluster_sum,
        cluster_n
    from {{ ref('stats_cluster_cases') }}
),

by_stratum as (
    select
        stratum,
        count(*) as n_clusters,
        sum(cluster_n) as n_obs,
        sum(cluster_sum) / sum(cluster_n) as mean_value,
        {{ cluster_se('cluster_sum', 'cluster_n') }} as se
    from clusters
    group by stratum
)

select
    stratum,
    n_clusters,
    n_obs,
    round(mean_value, 9) as mean_value,
    round(se, 9) as se,
    round({{ mean_ci_low('mean_value', 'se') }}, 9) as ci_low,
    round({{ mean_ci_high('mean_value', 'se') }}, 9) as ci_high
from by_stratum
