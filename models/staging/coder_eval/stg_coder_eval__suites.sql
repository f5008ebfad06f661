{%- set fields = [
    ('suite_id', '$.suite_id', 'varchar'),
    ('variant_id', '$.variant_id', 'varchar'),
    ('rows_total', '$.rows_total', 'bigint'),
    ('rows_passed', '$.rows_passed', 'bigint'),
    ('rows_failed', '$.rows_failed', 'bigint'),
    ('rows_error', '$.rows_error', 'bigint'),
    ('rows_not_graded', '$.rows_not_graded', 'bigint', "0"),
    ('pass_rate_stored', '$.pass_rate', 'double'),
    ('average_weighted_score', '$.average_weighted_score', 'double'),
    ('passed', '$.passed', 'boolean', "true"),
    ('rows_graded_stored', '$.rows_graded', 'bigint')
] -%}

with source as (select * from {{ source('coder_eval', 'ce_suite_docs') }})

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    {{ json_array_length('d.document', '$.criterion_stats') }} as n_criterion_stats,
    {{ json_array_length('d.document', '$.failed_samples') }} as n_failed_samples,
    {{ json_array_length('d.document', '$.criterion_aggregates') }} as n_criterion_aggregates,
    {{ coder_eval_typed_block('d.document', fields) }}
from source as d
