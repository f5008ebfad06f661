with observations as (
    select
        experiment_id,
        cluster_id,
        pair_id,
        arm,
        score
    from {{ ref('stats_paired_cases') }}
),

-- replicates are averaged within each (pair, arm) first
arm_means as (
    select
        experiment_id,
        cluster_id,
        pair_id,
        avg(case when arm = 'a' then score end) as mean_a,
        avg(case when arm = 'b' then score end) as mean_b
    from observations
    group by experiment_id, cluster_id, pair_id
),

-- one difference per pair; a pair missing an arm has no difference
pair_diffs as (
    select
        experiment_id,
        cluster_id,
        pair_id,
        mean_b - mean_a as diff
    from arm_means
    where mean_a is not null and mean_b is not null
),

cluster_diffs as (
    select
        experiment_id,
        cluster_id,
        sum(diff) as diff_sum,
        count(*) as n_pairs
    from pair_diffs
    group by experiment_id, cluster_id
),

by_experiment as (
    select
        experiment_id,
        count(*) as n_clusters,
        sum(n_pairs) as n_pairs,
        sum(diff_sum) / sum(n_pairs) as mean_diff,
        {{ cluster_se('diff_sum', 'n_pairs') }} as se
    from cluster_diffs
    group by experiment_id
)

select
    experiment_id,
    n_clusters,
    n_pairs,
    round(mean_diff, 9) as mean_diff,
    round(se, 9) as se,
    round({{ mean_ci_low('mean_diff', 'se', lower=-1, upper=1) }}, 9) as ci_low,
    round({{ mean_ci_high('mean_diff', 'se', lower=-1, upper=1) }}, 9) as ci_high,
    round({{ min_detectable_difference('se') }}, 9) as mdd
from by_experiment
