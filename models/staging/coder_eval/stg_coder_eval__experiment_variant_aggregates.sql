{%- set fields = coder_eval_variant_summary_fields() -%}

with source as (select * from {{ source('coder_eval', 'ce_experiment_docs') }})

select
    {{ coder_eval_report_provenance('d') }},
    va.key as aggregate_key,
    va.position,
    {{ json_has('va.value', '$.tasks_not_graded') }} as has_tasks_not_graded_key,
    {{ json_has('va.value', '$.tasks_measured') }} as has_tasks_measured_key,
    {{ json_has('va.value', '$.pass_rate') }} as has_pass_rate_key,
    {{ coder_eval_typed_block('va.value', fields) }}
from source as d
{{ json_each_entry('d.document', '$.variant_aggregates', 'va') }}
