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
    select * from {{ source('coder_eval_reports', 'ce_variant_docs') }}
)

select
    d.load_id,
    d.loaded_at,
    d.source_file,
    d.run_dir,
    d.run_id,
    d.document_sha256,
    d.variant_id as dir_variant_id,
    {{ json_has('d.document', '$.tasks_not_graded') }} as has_tasks_not_graded_key,
    {{ json_has('d.document', '$.tasks_measured') }} as has_tasks_measured_key,
    {{ json_has('d.document', '$.pass_rate') }} as has_pass_rate_key,
    {{ ce_typed_columns('d.document', fields) }},
    {{ ce_invalid_fields('d.document', fields) }} as invalid_fields,
    {{ ce_invalid_fields('d.document', fields) }} is not null as has_invalid_fields
from source as d
