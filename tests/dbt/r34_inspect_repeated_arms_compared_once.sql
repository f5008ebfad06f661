{#-
  R34 (what evalhouse computes): a paired comparison is made once. An arm of inspect_model_pairs (a log's values
  of one score, scorer and reducer) that another compared arm repeats, run for run and value for value (an
  `inspect score` copy keeps the log's runs, the same sample uuids, and with action append their scores), is
  the same arm: two compared arms of one family that are repeats of each other count one test twice in Holm / BH.
  Each row is such a pair of compared arms. Runs here are per epoch (int_inspect__sample_executions); a value is
  the one compared, the sample's value with its unscored epochs counted 0 (value_errors_as_incorrect).
-#}
{%- set arm = ['source_file', 'score_name', 'scorer', 'reducer'] %}

with pairs as (select * from {{ ref('inspect_model_pairs') }}),

compared as (
    select distinct
        p.source_file_a as source_file,
        p.score_name,
        p.scorer,
        p.reducer
    from pairs as p
    union
    select distinct
        p.source_file_b as source_file,
        p.score_name,
        p.scorer,
        p.reducer
    from pairs as p
),

-- each compared arm's (sample, epoch, run, value)
runs as (
    select
        {{ qualified('c', arm) }},
        v.sample_id,
        e.epoch,
        e.run_unit_key,
        v.value_errors_as_incorrect as value,
        count(*) over (partition by c.source_file, c.score_name, c.scorer, c.reducer) as n_runs
    from compared as c
    inner join {{ ref('int_inspect__sample_values') }} as v
        on {{ same_keys('c', 'v', ['source_file', 'score_name', 'scorer'], null_safe=['reducer']) }}
    inner join {{ ref('int_inspect__sample_executions') }} as e
        on v.source_file = e.source_file and v.sample_id = e.sample_id
)

select
    x.source_file as source_file_first,
    y.source_file as source_file_repeat,
    x.score_name,
    x.scorer,
    x.reducer,
    max(x.n_runs) as n_runs
from runs as x
inner join runs as y
    on
        {{ same_keys('x', 'y', ['score_name', 'scorer', 'sample_id', 'epoch', 'run_unit_key', 'n_runs'],
                     null_safe=['reducer', 'value']) }}
        and x.source_file < y.source_file
group by x.source_file, y.source_file, x.score_name, x.scorer, x.reducer
having count(*) = max(x.n_runs)
