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
        mean_a,
        mean_b,
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
),

pair_stats as (
    select
        experiment_id,
        {{ corr('mean_a', 'mean_b') }} as arm_corr,
        bool_and(mean_a in (0, 1) and mean_b in (0, 1)) as all_binary,
        count(case when mean_a = 1 and mean_b = 0 then 1 end) as discordant_b,
        count(case when mean_a = 0 and mean_b = 1 then 1 end) as discordant_c
    from pair_diffs
    group by experiment_id
)

select
    e.experiment_id,
    e.n_clusters,
    e.n_pairs,
    round(e.mean_diff, 9) as mean_diff,
    round(e.se, 9) as se,
    round({{ mean_ci_low('e.mean_diff', 'e.se', lower=-1, upper=1) }}, 9) as ci_low,
    round({{ mean_ci_high('e.mean_diff', 'e.se', lower=-1, upper=1) }}, 9) as ci_high,
    round({{ min_detectable_difference('e.se') }}, 9) as mdd,
    round(p.arm_corr, 9) as arm_corr,
    case when p.all_binary then p.discordant_b end as discordant_b,
    case when p.all_binary then p.discordant_c end as discordant_c,
    case when p.all_binary then round({{ mcnemar_exact_p('p.discordant_b', 'p.discordant_c') }}, 9) end as mcnemar_p
from by_experiment as e
inner join pair_stats as p on e.experiment_id = p.experiment_id
