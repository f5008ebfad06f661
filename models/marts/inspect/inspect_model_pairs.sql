{#-
  Model vs model on the same samples (inspect_ai itself does not offer this): two finished (status success) logs
  of one task with the same task arguments, compared per (scorer, reducer) on the samples both attempted, only
  when both attempted exactly the same samples (R30). Per sample d = value_b - value_a (model_a sorts first; an
  errored, unscored sample counts 0, R29); the mean of d with its SE over samples (one pair per sample: epochs
  are already reduced), the t(C-1) interval, MDD, the paired t-test p-value and Holm / BH within the family of
  all model pairs of one (task, scorer, reducer). Logs of other statuses, scorers and reducers are never pooled.
-#}
with logs as (
    select * from {{ ref('int_inspect__logs') }}
    where status = 'success'
),

arms as (
    select
        v.*,
        l.task,
        l.task_args_json,
        l.model,
        l.n_samples,
        l.created_at
    from {{ ref('int_inspect__sample_values') }} as v
    inner join logs as l on v.source_file = l.source_file
),

pairs as (
    select
        a.task,
        a.task_args_json,
        a.scorer,
        a.reducer,
        a.model as model_a,
        b.model as model_b,
        a.source_file as source_file_a,
        b.source_file as source_file_b,
        a.sample_id,
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
            a.task = b.task
            and a.task_args_json is not distinct from b.task_args_json
            and a.scorer = b.scorer
            and a.reducer is not distinct from b.reducer
            and a.sample_id = b.sample_id
            and (a.model < b.model or (a.model = b.model and a.source_file < b.source_file))
),

compared as (
    select
        p.task,
        p.task_args_json,
        p.scorer,
        p.reducer,
        p.model_a,
        p.model_b,
        p.source_file_a,
        p.source_file_b,
        count(*) as n_pairs,
        max(p.n_samples_a) as n_samples_a,
        max(p.n_samples_b) as n_samples_b,
        avg(p.value_a) as value_mean_a,
        avg(p.value_b) as value_mean_b,
        avg(p.value_diff) as value_diff_mean,
        {{ cluster_se('p.value_diff', '1') }} as value_diff_se,
        {{ arm_corr('p.value_a', 'p.value_b') }} as arm_corr,
        max(p.created_at_a) as created_at_a,
        max(p.created_at_b) as created_at_b
    from pairs as p
    group by p.task, p.task_args_json, p.scorer, p.reducer, p.model_a, p.model_b, p.source_file_a, p.source_file_b
),

tested as (
    select
        c.*,
        'inspect_model_pairs/' || c.task || '/' || c.scorer || '/' || coalesce(c.reducer, '-') as family,
        {{ paired_t_p('c.value_diff_mean', 'c.value_diff_se', 'c.n_pairs - 1') }} as p_value
    from compared as c
    -- only identical sample sets (R30): both logs attempted exactly the samples compared
    where c.n_pairs = c.n_samples_a and c.n_pairs = c.n_samples_b
),

ranked as (
    select
        t.*,
        count(*) over (partition by t.family) as family_size,
        {{ p_adjust_rank('t.p_value', ['t.family']) }} as p_rank,
        {{ p_family_size('t.p_value', ['t.family']) }} as p_family_size
    from tested as t
)

select
    r.task,
    r.task_args_json,
    r.scorer,
    r.reducer,
    r.model_a,
    r.model_b,
    r.source_file_a,
    r.source_file_b,
    cast(r.n_pairs as bigint) as n_pairs,
    cast(r.n_samples_a as bigint) as n_samples_a,
    cast(r.n_samples_b as bigint) as n_samples_b,
    r.value_mean_a,
    r.value_mean_b,
    r.value_diff_mean,
    r.value_diff_se,
    {{ paired_difference_columns('value_diff', 'r.value_diff_mean', 'r.value_diff_se', 'r.n_pairs', 'r.n_pairs') }},
    r.arm_corr,
    cast(r.family as varchar) as family,
    cast(r.family_size as bigint) as family_size,
    r.p_value,
    cast(r.p_family_size as bigint) as p_family_size,
    {{ p_adjusted_columns('r.p_value', 'r.p_rank', 'r.p_family_size', 'r.family') }},
    r.created_at_a,
    r.created_at_b
from ranked as r
