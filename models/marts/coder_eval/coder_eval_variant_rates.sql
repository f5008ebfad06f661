-- One row per (run, variant, system-prompt regime) at REPLICATE grain (R20: never pooled across
-- regimes; R21: the task-grain rate lives in separately named task_* columns).
{#- the replicate counts of a (run, variant, task, regime) fold, summed over the stratum's tasks #}
{%- set replicate_counts = ['n_replicates', 'n_succeeded', 'n_failed', 'n_error', 'n_ungraded', 'n_graded', 'n_measured'] %}
{%- set stratum = ['run_id', 'variant_id', 'system_prompt_regime'] %}

with folds as (select * from {{ ref('int_coder_eval__regime_task_folds') }}),

-- one row per (stratum, task) = one cluster for the clustered SE of average_score
clusters as (
    select
        {{ qualified('f', stratum) }},
        f.task_id,
        f.graded_score_sum as cluster_sum,
        f.n_succeeded as cluster_passed,
        f.n_graded as cluster_n
    from folds as f
    where f.n_graded > 0
),

strata as (
    select
        {{ qualified('f', stratum) }},
        {%- for c in replicate_counts %}
            sum(f.{{ c }}) as {{ c }},
        {%- endfor %}
        sum(f.graded_score_sum) as graded_score_sum,
        sum(f.n_graded_nonbinary) as n_graded_nonbinary,
        count(*) as n_tasks,
        sum(case when f.folded_category <> 'ungraded' then 1 else 0 end) as n_tasks_graded,
        sum(case when f.all_replicates_passed then 1 else 0 end) as n_tasks_all_passed,
        min(f.first_started_at) as first_started_at,
        max(f.last_started_at) as last_started_at
    from folds as f
    group by {{ qualified('f', stratum) }}
),

clustered as (
    select
        {{ qualified('c', stratum) }},
        count(*) as n_clusters,
        {{ cluster_se('c.cluster_sum', 'c.cluster_n') }} as average_score_se,
        {{ cluster_se('c.cluster_passed', 'c.cluster_n') }} as pass_rate_se
    from clusters as c
    group by {{ qualified('c', stratum) }}
),

rated as (
    select
        s.*,
        -- the nothing_was_measured guard of coder-eval (ungraded rows present, none scored)
        (s.n_ungraded > 0 and s.n_measured = 0) or s.n_graded = 0 as nothing_measured,
        coalesce(c.n_clusters, 0) as n_clusters,
        c.average_score_se,
        c.pass_rate_se
    from strata as s
    left join clustered as c
        on
            {{ same_keys('s', 'c', ['run_id', 'variant_id'], null_safe=['system_prompt_regime']) }}
),

final as (
    select
        r.*,
        case when not r.nothing_measured then cast(r.n_succeeded as double) / r.n_graded end as pass_rate,
        case when not r.nothing_measured then r.graded_score_sum / r.n_graded end as average_score,
        case
            when not r.nothing_measured and r.n_tasks_graded > 0
                then cast(r.n_tasks_all_passed as double) / r.n_tasks_graded
        end as task_pass_rate
    from rated as r
),

variant_json as (
    select
        v.run_id,
        coalesce(v.variant_id, v.dir_variant_id) as variant_id,
        v.source_file,
        v.pass_rate_stored,
        v.average_score,
        v.tasks_run
    from {{ ref('stg_coder_eval__variants') }} as v
),

staleness as (
    select
        c.source_file,
        max(case when c.explanation = 'stale' then 1 else 0 end) = 1 as is_stale
    from {{ ref('int_coder_eval__variant_json_checks') }} as c
    where c.document_kind = 'variant.json'
    group by c.source_file
),

variant_regimes as (
    select
        f.run_id,
        f.variant_id,
        count(*) as n_regimes
    from strata as f
    group by f.run_id, f.variant_id
)

select
    {{ qualified('f', stratum) }},
    {%- for c in replicate_counts %}
        cast(f.{{ c }} as bigint) as {{ c }},
    {%- endfor %}
    f.pass_rate,
    {{ clustered_rate_interval_columns('f.pass_rate', 'f.n_succeeded', 'f.n_graded', 'f.pass_rate_se', 'f.n_clusters',
                                       'pass_rate') }},
    cast({{ ci_null_reason('f.pass_rate', 'f.n_clusters') }} as {{ dbt.type_string() }}) as pass_rate_ci_reason,
    {{ rate_interval_columns('f.pass_rate', 'f.n_succeeded', 'f.n_graded', 'pass_rate_unclustered') }},
    f.average_score,
    {{ mean_interval_columns('f.average_score', 'f.average_score_se', 'average_score', 'f.n_clusters', 'f.n_graded',
                             binary='f.n_graded_nonbinary = 0') }},
    cast({{ ci_null_reason('f.average_score', 'f.n_clusters') }} as {{ dbt.type_string() }}) as average_score_ci_reason,
    {%- for c in ['n_clusters', 'n_tasks', 'n_tasks_graded', 'n_tasks_all_passed'] %}
        cast(f.{{ c }} as bigint) as {{ c }},
    {%- endfor %}
    f.task_pass_rate,
    {{ rate_interval_columns('f.task_pass_rate', 'f.n_tasks_all_passed', 'f.n_tasks_graded', 'task_pass_rate') }},
    f.task_pass_rate as all_replicates_pass_rate,
    {{ rate_interval_columns('f.task_pass_rate', 'f.n_tasks_all_passed', 'f.n_tasks_graded', 'all_replicates_pass_rate') }},
    v.source_file as variant_json_source_file,
    v.pass_rate_stored as variant_json_task_pass_rate_stored,
    v.average_score as variant_json_average_score_stored,
    v.tasks_run as variant_json_tasks_run_stored,
    st.is_stale as variant_json_is_stale,
    g.n_regimes > 1 as variant_json_spans_regimes,
    f.first_started_at as first_stamp,
    f.last_started_at as last_stamp
from final as f
inner join variant_regimes as g on {{ same_keys('f', 'g', ['run_id', 'variant_id']) }}
left join variant_json as v on {{ same_keys('f', 'v', ['run_id', 'variant_id']) }}
left join staleness as st
    on v.source_file = st.source_file
