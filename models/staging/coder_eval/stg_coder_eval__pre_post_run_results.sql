with source as (
    select * from {{ source('coder_eval', 'ce_task_docs') }}
),

results as (
    {%- for phase in ['pre_run', 'post_run'] %}
        {% if not loop.first %}union all{% endif %}
        select
            d.run_dir,
            d.run_id,
            d.variant_id,
            coalesce({{ json_text('d.document', '$.task_id') }}, d.task_id) as task_id,
            d.replicate_index,
            d.source_file,
            d.load_id,
            d.document_sha256,
            '{{ phase }}' as run_phase,
            r.position as result_index,
            r.value as result_json
        from source as d
        {{ json_each('d.document', '$.' ~ phase ~ '_results', 'r') }}
    {%- endfor %}
)

select
    {{ ce_replicate_identity('r') }},
    r.run_phase,
    r.result_index,
    {{ json_text('r.result_json', '$.command') }} as command,
    {{ ce_typed('r.result_json', '$.exit_code', 'integer') }} as exit_code,
    {{ json_text('r.result_json', '$.stdout') }} as stdout,
    {{ json_text('r.result_json', '$.stderr') }} as stderr,
    coalesce({{ ce_typed('r.result_json', '$.duration_seconds', 'double') }}, 0.0) as duration_seconds,
    {{ json_text('r.result_json', '$.error') }} as error,
    {{ ce_provenance('r') }}
from results as r
