-- R24 findings: stored variant.json / experiment.json aggregates that disagree with what the
-- replicate rows say NOW at every grain (stale after a detached grade, or an older writer's
-- formula). They are flagged here and in coder_eval_variant_rates.variant_json_is_stale, never preferred.
-- One row per document; detail lists every stale VariantAggregate field, experiment
-- VariantResult and per_replicate_scores list. The values evalhouse recomputes are printed to 12 decimals: a sum's
-- last binary digit depends on the order the engine adds in (DuckDB and Spark differ there).
with aggregate_fields as (
    select
        c.source_file,
        concat(c.document_kind, ' variant ', c.variant_id, ' ', c.field_name) as sort_key,
        concat(
            c.document_kind, ' variant ', c.variant_id, ': ', c.field_name, ' = ',
            coalesce({{ number_text('c.stored_value') }}, 'null'),
            case
                when not c.has_replicates then ' but no replicate rows exist for this variant'
                else concat(
                        ' is stale: the replicate rows now give ',
                        coalesce({{ number_text('c.task_grain_value', 12) }}, 'null'), ' at task grain and ',
                        coalesce({{ number_text('c.replicate_grain_value', 12) }}, 'null'), ' at replicate grain'
                    )
            end
        ) as detail
    from {{ ref('int_coder_eval__variant_json_checks') }} as c
    where c.explanation = 'stale'
),

variant_results as (
    select
        e.source_file,
        concat('experiment.json task ', e.task_id, ' variant ', e.variant_id) as sort_key,
        concat(
            'experiment.json task_summaries[', cast(e.summary_position as {{ dbt.type_string() }}), '] ', e.task_id,
            ' variant ', e.variant_id, ': stored final_status ', coalesce(e.final_status_stored, 'null'),
            ', weighted_score ', coalesce({{ number_text('e.weighted_score_stored') }}, 'null'),
            case
                when not e.has_replicates then ' but no replicate rows exist for this task'
                else concat(
                        ' is stale: the replicates now fold to ', coalesce(e.final_status_recomputed, 'null'),
                        ', ', coalesce({{ number_text('e.weighted_score_recomputed', 12) }}, 'null')
                    )
            end
        ) as detail
    from {{ ref('int_coder_eval__experiment_result_checks') }} as e
    where e.is_stale
),

score_lists as (
    select
        p.source_file,
        concat('experiment.json scores ', p.variant_id, ' ', p.task_id) as sort_key,
        concat(
            'experiment.json per_replicate_scores[', p.variant_id, '][', p.task_id, ']: ',
            cast(p.n_scores_stored as {{ dbt.type_string() }}), ' stored scores vs ', cast(p.n_scores_recomputed as {{ dbt.type_string() }}),
            ' measured replicate scores now; ', cast(p.n_scores_differing as {{ dbt.type_string() }}), ' differ (stale)'
        ) as detail
    from {{ ref('int_coder_eval__per_replicate_score_checks') }} as p
    where p.is_stale
),

findings as (
    select * from aggregate_fields
    union all
    select * from variant_results
    union all
    select * from score_lists
)

select
    {{ dq_finding('R24', 'coder_eval', 'f', line=false) }},
    {{ ordered_string_agg('f.detail', '; ', 'f.sort_key') }} as detail
from findings as f
group by f.source_file
