{%- set fields = coder_eval_variant_summary_fields() -%}

with source as (select * from {{ source('coder_eval', 'ce_variant_docs') }})

select
    {{ coder_eval_report_provenance('d', ['variant_id']) }},
    {{ json_has('d.document', '$.tasks_not_graded') }} as has_tasks_not_graded_key,
    {{ json_has('d.document', '$.tasks_measured') }} as has_tasks_measured_key,
    {{ json_has('d.document', '$.pass_rate') }} as has_pass_rate_key,
    {{ coder_eval_typed_block('d.document', fields) }}
from source as d
