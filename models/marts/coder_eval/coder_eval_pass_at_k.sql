{#-
  pass@k and pass^k per (run, variant, system-prompt regime, k), k = 1 .. the most graded replicates of
  any task: for a task with n graded replicates of which c succeeded (k <= n),
    pass@k = 1 - C(n - c, k) / C(n, k)   (the unbiased estimator of Chen et al. 2021: at least one of k
                                           replicates passes)
    pass^k = C(c, k) / C(n, k)            (Yao et al. 2024: all k replicates pass)
  averaged over the tasks with at least k graded replicates. The task is the cluster (one value per
  task): the interval is the unit-range clustered-mean interval with t(C-1), or, when every task's value is
  0 or 1 (k = n, or one replicate per task), the clustered rate's interval. At k = n for every task,
  pass^k is the all-replicates-pass rate (coder_eval_variant_rates.all_replicates_pass_rate).
-#}
{%- set stratum = ['run_id', 'variant_id', 'system_prompt_regime'] %}

with folds as (
    select * from {{ ref('int_coder_eval__regime_task_folds') }}
    where n_graded > 0
),

numbered as (
    select
        {{ qualified('r', stratum) }},
        row_number() over (
            partition by {{ qualified('r', stratum) }}, r.task_id order by r.replicate_index
        ) as k
    from {{ ref('int_coder_eval__replicates') }} as r
    where r.is_graded
),

ks as (
    select distinct
        {{ qualified('n', stratum) }},
        n.k
    from numbered as n
),

per_task as (
    select
        {{ qualified('f', stratum) }},
        k.k,
        f.task_id,
        f.n_graded,
        f.n_succeeded,
        1 - {{ stats_comb_ratio('f.n_graded - f.n_succeeded', 'f.n_graded', 'k.k') }} as pass_at_k,
        {{ stats_comb_ratio('f.n_succeeded', 'f.n_graded', 'k.k') }} as pass_hat_k,
        f.first_started_at,
        f.last_started_at
    from folds as f
    inner join ks as k
        on
            {{ same_keys('f', 'k', ['run_id', 'variant_id'], null_safe=['system_prompt_regime']) }}
            and f.n_graded >= k.k
),

strata as (
    select
        {{ qualified('p', stratum) }},
        p.k,
        count(*) as n_tasks,
        sum(p.n_graded) as n_graded,
        avg(p.pass_at_k) as pass_at_k,
        {{ cluster_se('p.pass_at_k', '1') }} as pass_at_k_se,
        avg(p.pass_hat_k) as pass_hat_k,
        {{ cluster_se('p.pass_hat_k', '1') }} as pass_hat_k_se,
        -- values 0 or 1 up to the rounding of the log-gamma ratio
        {%- for m in ['pass_at_k', 'pass_hat_k'] %}
            count(case when abs(p.{{ m }}) > 1e-9 and abs(p.{{ m }} - 1) > 1e-9 then 1 end) as n_{{ m }}_nonbinary,
        {%- endfor %}
        min(p.first_started_at) as first_stamp,
        max(p.last_started_at) as last_stamp
    from per_task as p
    group by {{ qualified('p', stratum) }}, p.k
)

select
    {{ qualified('s', stratum) }},
    cast(s.k as bigint) as k,
    cast(s.n_tasks as bigint) as n_tasks,
    cast(s.n_graded as bigint) as n_graded,
    cast(s.n_tasks as bigint) as n_clusters,
    s.pass_at_k,
    {{ mean_interval_columns('s.pass_at_k', 's.pass_at_k_se', 'pass_at_k', 's.n_tasks', 's.n_tasks', binary='s.n_pass_at_k_nonbinary = 0') }},
    s.pass_hat_k,
    {{ mean_interval_columns('s.pass_hat_k', 's.pass_hat_k_se', 'pass_hat_k', 's.n_tasks', 's.n_tasks', binary='s.n_pass_hat_k_nonbinary = 0') }},
    cast({{ ci_null_reason('s.pass_at_k', 's.n_tasks') }} as {{ dbt.type_string() }}) as ci_reason,
    s.first_stamp,
    s.last_stamp
from strata as s
