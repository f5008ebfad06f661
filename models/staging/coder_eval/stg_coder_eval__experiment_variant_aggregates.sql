{%- set fields = [
    ('variant_id', '$.variant_id', 'varchar'),
    ('tasks_run', '$.tasks_run', 'bigint'),
    ('tasks_succeeded', '$.tasks_succeeded', 'bigint'),
    ('tasks_failed', '$.tasks_failed', 'bigint'),
    ('tasks_error', '$.tasks_error', 'bigint'),
    ('tasks_not_graded', '$.tasks_not_graded', 'bigint', "0"),
    ('tasks_measured', '$.tasks_measured', 'bigint', "0"),
    ('average_score', '$.average_score', 'double'),
    ('average_duration', '$.average_duration', 'double'),
    ('total_tokens', '$.total_tokens', 'bigint'),
    ('replicate_count', '$.replicate_count', 'bigint', "1"),
    ('tasks_token_budget_exceeded', '$.tasks_token_budget_exceeded', 'bigint', "0"),
    ('tasks_cost_budget_exceeded', '$.tasks_cost_budget_exceeded', 'bigint', "0"),
    ('tasks_graded_stored', '$.tasks_graded', 'bigint'),
    ('pass_rate_stored', '$.pass_rate', 'double')
] -%}

with source as (
    select * from {{ source('coder_eval_reports', 'ce_experiment_docs') }}
)

select
    d.load_id,
    d.loaded_at,
    d.source_file,
    d.run_dir,
    d.run_id,
    d.document_sha256,
    va.key as aggregate_key,
    va.position,
    {{ json_has('va.value', '$.tasks_not_graded') }} as has_tasks_not_graded_key,
    {{ json_has('va.value', '$.tasks_measured') }} as has_tasks_measured_key,
    {{ json_has('va.value', '$.pass_rate') }} as has_pass_rate_key,
    {{ ce_typed_columns('va.value', fields) }},
    {{ ce_invalid_fields('va.value', fields) }} as invalid_fields,
    {{ ce_invalid_fields('va.value', fields) }} is not null as has_invalid_fields
from source as d
{{ json_each_entry('d.document', '$.variant_aggregates', 'va') }}
