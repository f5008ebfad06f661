with source as (select * from {{ source('coder_eval', 'ce_experiment_docs') }})

select
    d.load_id,
    d.loaded_at,
    d.source_file,
    d.run_dir,
    d.run_id,
    d.document_sha256,
    v.key as variant_id,
    t.key as task_id,
    v.position as variant_position,
    t.position as task_position,
    s.position as score_position,
    try_cast(s.value as double) as score,
    s.value is not null and s.value <> 'null' and try_cast(s.value as double) is null as has_invalid_fields
from source as d
{{ json_each_entry('d.document', '$.per_replicate_scores', 'v') }}
{{ json_each_entry('v.value', '$', 't') }}
{{ json_each('t.value', '$', 's') }}
