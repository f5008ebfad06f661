with task_docs as (select * from {{ ref('base_coder_eval__task_docs') }}),

results as (
    {{ coder_eval_task_doc_elements_select('task_docs', [
        ('success', 'success_criteria_results'),
        ('post_failure', 'post_failure_criteria_results'),
    ], 'result_phase', 'criterion_index', 'result_json') }}
),

typed as (
    select
        r.*,
        {{ json_text('r.result_json', '$.result_kind') }} as result_kind_stored,
        {{ json_text('r.result_json', '$.criterion_type') }} as criterion_type
    from results as r
)

select
    {{ coder_eval_replicate_identity('t') }},
    t.result_phase,
    t.criterion_index,
    coalesce(
        t.result_kind_stored,
        case
            when t.criterion_type in ('llm_judge', 'agent_judge', 'system_one_judge') then 'judge'
            when t.criterion_type in ('classification_match', 'skill_triggered') then 'classification'
            else 'basic'
        end
    ) as result_kind,
    t.result_kind_stored is null as is_result_kind_inferred,
    t.criterion_type,
    {{ json_text('t.result_json', '$.description') }} as criterion_description,
    {{ coder_eval_typed('t.result_json', '$.score', 'double') }} as score,
    {{ json_text('t.result_json', '$.details') }} as details,
    {{ json_text('t.result_json', '$.error') }} as error,
    coalesce({{ json_text('t.result_json', '$.evaluation_status') }}, 'evaluated') as evaluation_status,
    not{{ json_has('t.result_json', '$.evaluation_status') }} as is_evaluation_status_defaulted,
    coalesce({{ coder_eval_typed('t.result_json', '$.pass_threshold', 'double') }}, 0.9) as pass_threshold,
    coalesce({{ coder_eval_typed('t.result_json', '$.gating', 'boolean') }}, true) as gating,
    not{{ json_has('t.result_json', '$.gating') }} as is_gating_defaulted,
    {{ json_array_length('t.result_json', '$.findings') }} as n_findings,
    {{ coder_eval_token_usage_columns('t.result_json', '$.token_usage', 'judge_') }},
    {{ json_text('t.result_json', '$.transcript_path') }} as transcript_path,
    {{ json_text('t.result_json', '$.observed_label') }} as observed_label,
    {{ json_text('t.result_json', '$.expected_label') }} as expected_label,
    {{ coder_eval_provenance('t') }}
from typed as t
