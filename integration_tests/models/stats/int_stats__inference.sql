with cases as (select * from {{ ref('stats_inference_cases') }})

select
    case_id,
    mean_value,
    se,
    n_clusters,
    n_obs,
    k,
    n,
    round({{ t_quantile('n_clusters - 1', 0.975) }}, 9) as t975,
    round({{ clustered_mean_bound('mean_value', 'se', 'n_clusters', 'n_obs', 'low') }}, 9) as unit_ci_low,
    round({{ clustered_mean_bound('mean_value', 'se', 'n_clusters', 'n_obs', 'high') }}, 9) as unit_ci_high,
    round({{ clustered_mean_bound('mean_value', 'se', 'n_clusters', 'n_obs', 'low', lower=-1, upper=1) }}, 9) as diff_ci_low,
    round({{ clustered_mean_bound('mean_value', 'se', 'n_clusters', 'n_obs', 'high', lower=-1, upper=1) }}, 9) as diff_ci_high,
    round({{ clustered_rate_bound('k', 'n', 'se', 'n_clusters', 'low') }}, 9) as rate_ci_low,
    round({{ clustered_rate_bound('k', 'n', 'se', 'n_clusters', 'high') }}, 9) as rate_ci_high,
    round({{ t_min_detectable_difference('se', 'n_clusters') }}, 9) as mdd,
    round({{ paired_t_p('mean_value', 'se', 'n_clusters - 1') }}, 9) as p_value
from cases
