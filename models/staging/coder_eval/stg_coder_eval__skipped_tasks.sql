with source as (select * from {{ source('coder_eval', 'ce_run_docs') }})

select
    d.run_dir,
    d.run_id,
    s.position as skipped_index,
    {{ json_text('s.value', '$.path') }} as skipped_path,
    {{ json_text('s.value', '$.reason') }} as skipped_reason,
    {{ coder_eval_provenance('d') }}
from source as d
{{ json_each('d.document', '$.skipped_tasks', 's') }}
