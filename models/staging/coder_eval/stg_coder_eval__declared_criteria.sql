{#- The criteria a task declared (task.json task_config.resolved.success_criteria[]), positionally matching the results. -#}
with task_docs as (select * from {{ ref('base_coder_eval__task_docs') }})

select
    {{ coder_eval_replicate_identity('d') }},
    c.position as criterion_index,
    {{ json_text('c.value', '$.type') }} as criterion_type,
    {{ json_text('c.value', '$.description') }} as criterion_description,
    coalesce({{ coder_eval_typed('c.value', '$.weight', 'double') }}, 1.0) as weight,
    {{ coder_eval_typed('c.value', '$.pass_threshold', 'double') }} as pass_threshold,
    {{ json_text('c.value', '$.model') }} as judge_model,
    {{ json_fragment('c.value', '$.suite_thresholds') }} as suite_thresholds_json,
    {{ coder_eval_provenance('d') }}
from task_docs as d
{{ json_each('d.document', '$.task_config.resolved.success_criteria', 'c') }}
