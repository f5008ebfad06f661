with groups as (
    select
        stratum,
        group_id,
        group_mean,
        group_se,
        group_clusters,
        group_obs,
        group_binary
    from {{ ref('stats_mean_of_groups_cases') }}
),

parts as (
    select
        stratum,
        {{ mean_of_groups_columns('group_mean', 'group_se', 'group_clusters', 'group_obs', 'group_binary', 'groups') }}
    from groups
    group by stratum
)

select
    stratum,
    round(groups_mean, 9) as mean_value,
    round(groups_se, 9) as se,
    cast(groups_df as bigint) as df,
    round(groups_n_obs, 9) as n_obs,
    groups_is_binary as is_binary,
    round({{ clustered_mean_bound('groups_mean', 'groups_se', 'groups_df + 1', 'groups_n_obs', 'low', binary='groups_is_binary') }}, 9)
        as ci_low,
    round({{ clustered_mean_bound('groups_mean', 'groups_se', 'groups_df + 1', 'groups_n_obs', 'high', binary='groups_is_binary') }}, 9)
        as ci_high
from parts
