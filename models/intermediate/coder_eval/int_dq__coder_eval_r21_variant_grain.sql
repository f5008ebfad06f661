-- R21 findings: a stored variant.json / experiment.json `variant_aggregates` value that differs
-- from the replicate-grain recomputation BECAUSE it is task grain (worst-of-replicates folding,
-- pass^k): it matches the task-grain recomputation. Not an error in the file, but a number that
-- must never be read as a replicate-grain rate. One row per document; detail lists each field. The values evalhouse
-- recomputes are printed to 12 decimals (a sum's last binary digit depends on the engine's order of addition).
with findings as (
    select
        c.source_file,
        c.document_kind,
        c.variant_id,
        c.field_name,
        concat(
            c.document_kind, ' variant ', c.variant_id, ': ', c.field_name, ' = ',
            coalesce({{ number_text('c.stored_value') }}, 'null'),
            ' is TASK grain (worst-of-replicates folding; recomputed task grain = ',
            coalesce({{ number_text('c.task_grain_value', 12) }}, 'null'),
            ') while the replicate-grain value is ',
            coalesce({{ number_text('c.replicate_grain_value', 12) }}, 'null'),
            case
                when c.replicate_grain_value is null and c.stored_value is not null
                    then ' (nothing measured at replicate grain; folding turned unscored rows into 0.0)'
                else ''
            end
        ) as detail
    from {{ ref('int_coder_eval__variant_json_checks') }} as c
    where c.explanation = 'grain'
)

select
    {{ dq_finding('R21', 'coder_eval', 'f', line=false) }},
    {{ ordered_string_agg('f.detail', '; ', 'f.document_kind, f.variant_id, f.field_name') }} as detail
from findings as f
group by f.source_file
