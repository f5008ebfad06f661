with task_docs as (select * from {{ ref('base_coder_eval__task_docs') }}),

results as (
    {{ coder_eval_task_doc_elements_select('task_docs', [
        ('pre_run', 'pre_run_results'),
        ('post_run', 'post_run_results'),
    ], 'run_phase', 'result_index', 'result_json') }}
)

select
    {{ coder_eval_replicate_identity('r') }},
    r.run_phase,
    r.result_index,
    {{ json_text('r.result_json', '$.command') }} as command,
    {{ coder_eval_typed('r.result_json', '$.exit_code', 'integer') }} as exit_code,
    {{ json_text('r.result_json', '$.stdout') }} as stdout,
    {{ json_text('r.result_json', '$.stderr') }} as stderr,
    coalesce({{ coder_eval_typed('r.result_json', '$.duration_seconds', 'double') }}, 0.0) as duration_seconds,
    {{ json_text('r.result_json', '$.error') }} as error,
    {{ coder_eval_provenance('r') }}
from results as r
