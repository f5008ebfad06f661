{#-
  R30 (what evalhouse computes): inspect model comparisons are paired only on identical sample sets and only
  between finished logs of one task with the same arguments: every row of inspect_model_pairs compares exactly
  the samples each log attempted, and both logs have status success, the same task and the same arguments.
-#}
select
    p.task,
    p.scorer,
    p.reducer,
    p.model_a,
    p.model_b,
    p.n_pairs,
    p.n_samples_a,
    p.n_samples_b
from {{ ref('inspect_model_pairs') }} as p
left join {{ ref('int_inspect__logs') }} as a on p.source_file_a = a.source_file
left join {{ ref('int_inspect__logs') }} as b on p.source_file_b = b.source_file
where
    p.n_pairs <> p.n_samples_a
    or p.n_pairs <> p.n_samples_b
    or a.status is distinct from 'success'
    or b.status is distinct from 'success'
    or a.task is distinct from b.task
    or a.task_args_json is distinct from b.task_args_json
