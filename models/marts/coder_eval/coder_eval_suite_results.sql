-- One row per (suite.json, threshold check); a suite without threshold checks gets one row with
-- the check columns NULL. Suite columns are DATASET-ROW grain (replicate rows of a dataset-backed
-- suite, R21): stored SuiteRollup counts next to counts recomputed from fct_coder_eval_replicates.
-- Threshold checks: stored `passed` next to `passed` recomputed from the metrics the aggregator
-- emitted; a check naming a metric the aggregator never emits (e.g. f1.macro vs macro_f1) is
-- flagged in names_unemitted_metric.
-- R25: the DATASET ROW (task_id) is the cluster (its replicates are not independent): pass_rate has
-- the clustered Wilson interval (design-effect n, t(C-1)); average_weighted_score a cluster-robust
-- SE and a t(C-1) interval clipped to [0, 1] (the clustered rate's interval when every weighted score is 0 or 1).
{#- SuiteRollup's stored counts, each recomputed from the replicates: rows_total counts them all, the others
    count one status_category #}
{%- set status_counts = {'rows_passed': 'succeeded', 'rows_failed': 'failed', 'rows_error': 'error', 'rows_not_graded': 'ungraded'} %}
{%- set stored_counts = ['rows_total'] + (status_counts.keys() | list) %}
{%- set suite = ['run_id', 'variant_id', 'suite_id'] %}

with suites as (select * from {{ ref('stg_coder_eval__suites') }}),

rows_recomputed as (
    select
        {{ qualified('r', suite) }},
        count(*) as rows_total,
        {%- for name, status in status_counts.items() %}
            sum(case when r.status_category = '{{ status }}' then 1 else 0 end) as {{ name }},
        {%- endfor %}
        sum(case when r.is_measured then 1 else 0 end) as rows_measured,
        avg(r.weighted_score) as average_weighted_score,
        count(distinct r.task_id) as n_dataset_rows,
        min(r.started_at) as first_started_at,
        max(r.started_at) as last_started_at
    from {{ ref('int_coder_eval__replicates') }} as r
    where r.suite_id is not null
    group by {{ qualified('r', suite) }}
),

-- R25: one row per (run, variant, suite, dataset row = task_id): the cluster of the clustered SE of
-- average_weighted_score (a dataset row's replicates are not independent)
row_clusters as (
    select
        {{ qualified('r', suite) }},
        r.task_id,
        sum(r.weighted_score) as cluster_sum,
        count(r.weighted_score) as cluster_n,
        count(case when r.weighted_score not in (0, 1) then 1 end) as cluster_nonbinary,
        sum(case when r.status_category = 'succeeded' then 1 else 0 end) as cluster_passed,
        sum(case when r.status_category <> 'ungraded' then 1 else 0 end) as cluster_graded
    from {{ ref('int_coder_eval__replicates') }} as r
    where r.suite_id is not null
    group by {{ qualified('r', suite) }}, r.task_id
),

clustered as (
    select
        {{ qualified('c', suite) }},
        count(*) filter (where c.cluster_n > 0) as n_clusters,
        {{ cluster_se('c.cluster_sum', 'c.cluster_n') }} as average_weighted_score_se,
        sum(c.cluster_nonbinary) as n_weighted_score_nonbinary,
        count(*) filter (where c.cluster_graded > 0) as n_pass_rate_clusters,
        {{ cluster_se('c.cluster_passed', 'c.cluster_graded') }} as pass_rate_se
    from row_clusters as c
    group by {{ qualified('c', suite) }}
),

metrics as (select * from {{ ref('stg_coder_eval__suite_criterion_metrics') }}),

checks as (
    select
        t.source_file,
        t.aggregate_position,
        t.position as check_position,
        t.criterion_type,
        t.criterion_description,
        t.metric,
        t.min_value,
        t.actual_value,
        t.passed_stored,
        m.metric_name is not null as metric_emitted,
        m.metric_value as metric_value_emitted
    from {{ ref('stg_coder_eval__suite_threshold_checks') }} as t
    left join metrics as m
        on
            {{ same_keys('t', 'm', ['source_file', 'aggregate_position']) }}
            and t.metric = m.metric_name
),

suite_rows as (
    select
        s.source_file,
        s.run_id,
        coalesce(s.variant_id, s.dir_variant_id) as variant_id,
        coalesce(s.suite_id, s.dir_suite_id) as suite_id,
        {%- for c in stored_counts %}
            s.{{ c }} as {{ c }}_stored,
        {%- endfor %}
        s.pass_rate_stored,
        s.average_weighted_score as average_weighted_score_stored,
        s.passed as suite_passed_stored,
        {%- for c in stored_counts + ['rows_measured', 'n_dataset_rows'] %}
            coalesce(r.{{ c }}, 0) as {{ c }},
        {%- endfor %}
        r.average_weighted_score,
        coalesce(k.n_clusters, 0) as n_clusters,
        k.average_weighted_score_se,
        k.n_weighted_score_nonbinary,
        coalesce(k.n_pass_rate_clusters, 0) as n_pass_rate_clusters,
        k.pass_rate_se,
        r.first_started_at,
        r.last_started_at
    from suites as s
    left join rows_recomputed as r
        on
            s.run_id = r.run_id
            and coalesce(s.variant_id, s.dir_variant_id) = r.variant_id
            and coalesce(s.suite_id, s.dir_suite_id) = r.suite_id
    left join clustered as k
        on
            {{ same_keys('r', 'k', suite) }}
),

rated as (
    select
        u.*,
        u.rows_total - u.rows_not_graded as rows_graded,
        case
            when u.rows_not_graded > 0 and u.rows_measured = 0 then null
            when u.rows_total - u.rows_not_graded = 0 then null
            else cast(u.rows_passed as double) / (u.rows_total - u.rows_not_graded)
        end as pass_rate
    from suite_rows as u
),

aggregate_pass as (
    -- an aggregate passes when it has no error (a stub from an aggregate() that returned None
    -- fails) and every one of its threshold checks passes on the emitted metrics
    select
        a.source_file,
        a.aggregate_position,
        a.error is null and coalesce(bool_and(coalesce(c.metric_value_emitted >= c.min_value, false)), true)
            as aggregate_passed
    from {{ ref('stg_coder_eval__suite_criterion_aggregates') }} as a
    left join checks as c
        on {{ same_keys('a', 'c', ['source_file', 'aggregate_position']) }}
    group by a.source_file, a.aggregate_position, a.error
),

suite_pass as (
    select
        p.source_file,
        bool_and(p.aggregate_passed) as all_checks_passed
    from aggregate_pass as p
    group by p.source_file
)

select
    {{ qualified('u', suite) }},
    u.source_file,
    {%- for c in stored_counts %}
        cast(u.{{ c }}_stored as bigint) as {{ c }}_stored,
    {%- endfor %}
    u.pass_rate_stored,
    u.average_weighted_score_stored,
    u.suite_passed_stored,
    {%- for c in stored_counts + ['rows_graded', 'rows_measured', 'n_dataset_rows'] %}
        cast(u.{{ c }} as bigint) as {{ c }},
    {%- endfor %}
    u.pass_rate,
    {{ clustered_rate_interval_columns('u.pass_rate', 'u.rows_passed', 'u.rows_graded', 'u.pass_rate_se',
                                       'u.n_pass_rate_clusters', 'pass_rate') }},
    cast({{ ci_null_reason('u.pass_rate', 'u.n_pass_rate_clusters') }} as {{ dbt.type_string() }}) as pass_rate_ci_reason,
    cast(u.n_pass_rate_clusters as bigint) as n_pass_rate_clusters,
    u.average_weighted_score,
    {{ mean_interval_columns('u.average_weighted_score', 'u.average_weighted_score_se', 'average_weighted_score',
                             'u.n_clusters', 'u.rows_measured', widen_to_mean=true, binary='u.n_weighted_score_nonbinary = 0') }},
    cast({{ ci_null_reason('u.average_weighted_score', 'u.n_clusters') }} as {{ dbt.type_string() }}) as average_weighted_score_ci_reason,
    cast(u.n_clusters as bigint) as n_clusters,
    u.rows_total > 0 as rows_found,
    case
        when u.rows_total > 0 then
            u.rows_total = u.rows_total_stored
            and u.rows_passed = u.rows_passed_stored
            and u.rows_failed = u.rows_failed_stored
            and u.rows_error = u.rows_error_stored
            and u.rows_not_graded = u.rows_not_graded_stored
    end as counts_consistent,
    case
        when u.rows_total > 0 then coalesce({{ coder_eval_variant_same('u.pass_rate', 'u.pass_rate_stored') }}, false)
    end as pass_rate_consistent,
    coalesce(sp.all_checks_passed, true) as suite_passed_recomputed,
    c.aggregate_position,
    c.check_position,
    c.criterion_type,
    c.criterion_description,
    c.metric,
    c.min_value,
    c.actual_value as actual_value_stored,
    c.metric_emitted,
    c.metric_value_emitted,
    c.passed_stored,
    case when c.metric is not null then coalesce(c.metric_value_emitted >= c.min_value, false) end as passed_recomputed,
    case when c.metric is not null then not c.metric_emitted end as names_unemitted_metric,
    u.first_started_at as first_stamp,
    u.last_started_at as last_stamp
from rated as u
left join checks as c
    on u.source_file = c.source_file
left join suite_pass as sp
    on u.source_file = sp.source_file
