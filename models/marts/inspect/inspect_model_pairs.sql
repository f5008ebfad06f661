{#-
  Model vs model on the same samples (inspect_ai itself does not offer this): two finished (status success) logs
  of one task with the same task arguments, compared per (score, reducer) on the samples both attempted, only
  when both attempted exactly the same samples (R30). Per sample d = value_b - value_a (model_a sorts first; an
  errored, unscored sample counts 0, R29, and so does an epoch without a score within a sample: the reducer is taken
  again, int_inspect__sample_values.value_errors_as_incorrect; a reducer that cannot be, with such an epoch in either
  arm, is not compared); the mean of d with its cluster-robust SE (a cluster is a sample, its
  epochs already reduced, or the samples sharing the metadata value a clustered stderr declares), the t(C-1)
  interval (clipped to [-1, 1] where both arms' values lie in [0, 1]; unclipped, and NULL when SE = 0, for a score off
  the unit range, whose range the log does not state), MDD, the paired t-test p-value on C - 1 degrees of freedom
  and Holm / BH within the family of all model pairs of one (task, score, reducer). Logs of other statuses, scorers
  and reducers are never pooled, and neither are logs measured with another instrument (R35): another task version,
  the scorer with other arguments or calling other models (a grader), another number of epochs (but for the mean
  and pass_at_k, whose estimand does not depend on it), or a sample of one id whose target differs (an edited answer
  key: the sample sets are then not identical). An arm that an `inspect score` copy repeats (the same runs, the same values) is
  compared once, in the log recorded first.
-#}
{#- one comparison: a pair of logs (model_a's first) on one (task, task arguments, score, reducer) #}
{%- set comparison = ['task', 'task_args_json', 'score_name', 'scorer', 'reducer', 'model_a', 'model_b',
                      'source_file_a', 'source_file_b'] %}

{#- one arm: a log's values of one score #}
{%- set arm = ['source_file', 'score_name', 'scorer'] %}

with logs as (
    select
        l.*,
        -- the order the logs were recorded in, as int_inspect__sample_executions orders a run's records
        row_number() over (order by l.created_at asc nulls last, l.source_file asc) as log_order
    from {{ ref('int_inspect__logs') }} as l
    where l.status = 'success'
),

-- the run behind each (log, sample): the first record of its first epoch's run (a copy of a log names the
-- original's; a sample without a uuid is a run of its own); and its target, where every epoch states the same one
-- (a record without a target counts as another): a sample whose epochs disagree is no item to pair
sample_runs as (
    select
        e.source_file,
        e.sample_id,
        min(e.run_unit_key) as run_key,
        min(e.target) as target,
        count(distinct e.target) + max(case when e.target is null then 1 else 0 end) = 1 as has_one_target
    from {{ ref('int_inspect__sample_executions') }} as e
    group by e.source_file, e.sample_id
),

-- each sample's value with every epoch without a score counted 0, as R29 counts an errored sample
scored as (
    select
        v.source_file,
        v.score_name,
        v.scorer,
        v.reducer,
        v.sample_id,
        v.cluster_id,
        v.value_errors_as_incorrect as value,
        l.task,
        l.task_args_json,
        l.task_version,
        l.epochs,
        i.scorer_options_json,
        i.scorer_models,
        l.model,
        l.n_samples,
        l.created_at,
        l.log_order,
        r.run_key,
        r.target,
        r.has_one_target,
        count(*) over (partition by {{ qualified('v', arm) }}, v.reducer) as n_arm_samples
    from {{ ref('int_inspect__sample_values') }} as v
    inner join logs as l on v.source_file = l.source_file
    inner join sample_runs as r on v.source_file = r.source_file and v.sample_id = r.sample_id
    left join {{ ref('int_inspect__scorer_instruments') }} as i on v.source_file = i.source_file and v.scorer = i.scorer
),

-- an arm that repeats, run for run and value for value, the arm of a log recorded earlier: an `inspect score`
-- copy keeps the log's runs (the same sample uuids) and, with action append, their scores. It is one arm, compared
-- once, in the log recorded first. Runs scored again to other values (action overwrite) are an arm of their own.
repeated_arms as (
    select
        {{ qualified('x', arm) }},
        x.reducer
    from scored as x
    inner join scored as y
        on
            {{ same_keys('x', 'y', ['task', 'score_name', 'scorer', 'sample_id', 'run_key', 'n_arm_samples'],
                         null_safe=['task_args_json', 'reducer', 'value']) }}
            and x.log_order > y.log_order
    group by {{ qualified('x', arm) }}, x.reducer, y.source_file
    having count(*) = max(x.n_arm_samples)
),

arms as (
    select s.*
    from scored as s
    left join repeated_arms as r
        on {{ same_keys('s', 'r', arm, null_safe=['reducer']) }}
    where r.source_file is null
),

pairs as (
    select
        a.task,
        a.task_args_json,
        a.score_name,
        a.scorer,
        a.reducer,
        a.model as model_a,
        b.model as model_b,
        a.source_file as source_file_a,
        b.source_file as source_file_b,
        a.sample_id,
        a.cluster_id,
        a.value as value_a,
        b.value as value_b,
        b.value - a.value as value_diff,
        a.n_samples as n_samples_a,
        b.n_samples as n_samples_b,
        a.created_at as created_at_a,
        b.created_at as created_at_b
    from arms as a
    inner join arms as b
        on
            {{ same_keys('a', 'b', ['task', 'score_name', 'scorer', 'sample_id'],
                         null_safe=['task_args_json', 'reducer']) }}
            and (a.model < b.model or (a.model = b.model and a.source_file < b.source_file))
            -- measured with the same instrument (R35): task version, scorer arguments, grader, epochs; and the same
            -- item: a sample whose target differs is not paired, so the comparison fails R30's identical sample sets
            and {{ inspect_same_instrument('a', 'b') }}
            and a.target is not distinct from b.target
            and a.has_one_target and b.has_one_target
),

-- one row per cluster of samples (a sample, or the samples sharing the declared cluster metadata value)
clusters as (
    select
        {{ qualified('p', comparison) }},
        p.cluster_id,
        count(*) as n_pairs,
        count(case when p.value_diff is null then 1 end) as n_not_rereduced,
        sum(p.value_diff) as value_diff_sum,
        sum(p.value_a) as value_a_sum,
        sum(p.value_b) as value_b_sum,
        max(p.n_samples_a) as n_samples_a,
        max(p.n_samples_b) as n_samples_b,
        max(p.created_at_a) as created_at_a,
        max(p.created_at_b) as created_at_b,
        min(least(p.value_a, p.value_b)) as value_min,
        max(greatest(p.value_a, p.value_b)) as value_max
    from pairs as p
    group by {{ qualified('p', comparison) }}, p.cluster_id
),

correlated as (
    select
        p.source_file_a,
        p.source_file_b,
        p.score_name,
        p.scorer,
        p.reducer,
        {{ arm_corr('p.value_a', 'p.value_b') }} as arm_corr
    from pairs as p
    group by p.source_file_a, p.source_file_b, p.score_name, p.scorer, p.reducer
),

compared as (
    select
        {{ qualified('c', comparison) }},
        sum(c.n_pairs) as n_pairs,
        sum(c.n_not_rereduced) as n_not_rereduced,
        count(*) as n_clusters,
        max(c.n_samples_a) as n_samples_a,
        max(c.n_samples_b) as n_samples_b,
        sum(c.value_a_sum) / sum(c.n_pairs) as value_mean_a,
        sum(c.value_b_sum) / sum(c.n_pairs) as value_mean_b,
        sum(c.value_diff_sum) / sum(c.n_pairs) as value_diff_mean,
        {{ cluster_se('c.value_diff_sum', 'c.n_pairs') }} as value_diff_se,
        max(c.created_at_a) as created_at_a,
        max(c.created_at_b) as created_at_b,
        -- both arms' values in [0, 1]: the difference is in [-1, 1]; any other score's range is unknown
        min(c.value_min) >= 0 and max(c.value_max) <= 1 as is_unit_range
    from clusters as c
    group by {{ qualified('c', comparison) }}
),

tested as (
    select
        c.*,
        k.arm_corr,
        'inspect_model_pairs/' || c.task || '/' || c.score_name || '/' || coalesce(c.reducer, '-') as family,
        {{ paired_t_p('c.value_diff_mean', 'c.value_diff_se', 'c.n_clusters - 1') }} as p_value
    from compared as c
    inner join correlated as k
        on
            {{ same_keys('c', 'k', ['source_file_a', 'source_file_b', 'score_name', 'scorer'], null_safe=['reducer']) }}
    -- only identical sample sets (R30): both logs attempted exactly the samples compared
    where
        c.n_pairs = c.n_samples_a and c.n_pairs = c.n_samples_b
        -- and every sample's value counts its unscored epochs 0 (a reducer evalhouse cannot take again is not compared)
        and c.n_not_rereduced = 0
),

ranked as (
    select
        t.*,
        count(*) over (partition by t.family) as family_size,
        {{ p_rank_columns('t.p_value', 't.family') }}
    from tested as t
)

select
    {{ qualified('r', comparison) }},
    {%- for c in ['n_pairs', 'n_clusters', 'n_samples_a', 'n_samples_b'] %}
        cast(r.{{ c }} as bigint) as {{ c }},
    {%- endfor %}
    r.value_mean_a,
    r.value_mean_b,
    cast(r.family as {{ dbt.type_string() }}) as family,
    cast(r.family_size as bigint) as family_size,
    {{ paired_test_columns('r', 'value_diff', 'r.n_clusters', 'r.n_pairs', bounded='r.is_unit_range') }},
    r.created_at_a,
    r.created_at_b
from ranked as r
