{#- stored VariantAggregate field, task-grain recomputation (coder-eval formula), replicate-grain recomputation, key-present guard -#}
{%- set fields = [
    ('tasks_run', 's.tasks_run', 'r.tasks_run', 'r.n_replicates', 'true'),
    ('tasks_succeeded', 's.tasks_succeeded', 'r.tasks_succeeded', 'r.n_replicates_succeeded', 'true'),
    ('tasks_failed', 's.tasks_failed', 'r.tasks_failed', 'r.n_replicates_failed', 'true'),
    ('tasks_error', 's.tasks_error', 'r.tasks_error', 'r.n_replicates_error', 'true'),
    ('tasks_not_graded', 's.tasks_not_graded', 'r.tasks_not_graded', 'r.n_replicates_ungraded', 's.has_tasks_not_graded_key'),
    ('tasks_measured', 's.tasks_measured', 'r.tasks_measured', 'r.n_replicates_measured', 's.has_tasks_measured_key'),
    ('pass_rate', 's.pass_rate_stored', 'r.task_pass_rate_library', 'r.replicate_pass_rate', 's.has_pass_rate_key'),
    ('average_score', 's.average_score', 'r.task_average_score_library', 'r.replicate_average_score', 'true'),
] -%}

-- One row per (stored VariantAggregate document, field): the stored value of variant.json or of
-- experiment.json `variant_aggregates[v]` next to its recomputation from the replicate rows at
-- task grain (worst-of-replicates folding, coder-eval's formula) and at replicate grain, and the
-- explanation of any difference: 'grain' (R21: the stored value is task grain and matches the
-- task-grain recomputation) or 'stale' (R24: it matches no recomputation from the current rows;
-- a detached grade or an older writer's formula). Keys an older writer did not emit are skipped.
with stored as (
    select
        'variant.json' as document_kind,
        v.source_file,
        v.run_id,
        coalesce(v.variant_id, v.dir_variant_id) as variant_id,
        v.tasks_run,
        v.tasks_succeeded,
        v.tasks_failed,
        v.tasks_error,
        v.tasks_not_graded,
        v.tasks_measured,
        v.pass_rate_stored,
        v.average_score,
        v.has_tasks_not_graded_key,
        v.has_tasks_measured_key,
        v.has_pass_rate_key
    from {{ ref('stg_coder_eval__variants') }} as v
    union all
    select
        'experiment.json variant_aggregates' as document_kind,
        a.source_file,
        a.run_id,
        coalesce(a.variant_id, a.aggregate_key) as variant_id,
        a.tasks_run,
        a.tasks_succeeded,
        a.tasks_failed,
        a.tasks_error,
        a.tasks_not_graded,
        a.tasks_measured,
        a.pass_rate_stored,
        a.average_score,
        a.has_tasks_not_graded_key,
        a.has_tasks_measured_key,
        a.has_pass_rate_key
    from {{ ref('stg_coder_eval__experiment_variant_aggregates') }} as a
),

recomputed as (select * from {{ ref('int_coder_eval__variant_recomputed') }}),

-- one SELECT per field of `fields`, stacked
compared as (
    {%- for f in fields %}
        select
            s.document_kind,
            s.source_file,
            s.run_id,
            s.variant_id,
            '{{ f[0] }}' as field_name,
            cast({{ f[1] }} as double) as stored_value,
            cast({{ f[2] }} as double) as task_grain_value,
            cast({{ f[3] }} as double) as replicate_grain_value,
            r.run_id is not null as has_replicates,
            coalesce({{ coder_eval_variant_same(f[1], f[2]) }}, false) as matches_task_grain,
            coalesce({{ coder_eval_variant_same(f[1], f[3]) }}, false) as matches_replicate_grain
        from stored as s
        left join recomputed as r
            on s.run_id = r.run_id and s.variant_id = r.variant_id
        where {{ f[4] }}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
)

select
    c.*,
    case
        when not c.has_replicates then 'stale'
        when c.matches_task_grain and c.matches_replicate_grain then 'agrees'
        when c.matches_task_grain then 'grain'
        else 'stale'
    end as explanation
from compared as c
