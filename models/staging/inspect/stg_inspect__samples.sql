{#- One row per (log, sample, epoch): what the sample member says, typed. The key is (sample id, epoch). -#}
with members as (select * from {{ ref('base_inspect__sample_members') }})

select
    m.source_file,
    m.sample_id,
    m.sample_id_is_int,
    m.epoch,
    {{ json_text('m.document', '$.uuid') }} as sample_uuid,
    {{ json_text('m.document', '$.target') }} as target,
    {{ json_text('m.document', '$.output.completion') }} as completion,
    {{ json_text('m.document', '$.error.message') }} as error_message,
    {{ json_text('m.document', '$.limit.type') }} as limit_type,
    try_cast({{ json_text('m.document', '$.limit.limit') }} as double) as limit_value,
    {{ parse_utc_timestamp(json_text('m.document', '$.started_at')) }} as started_at,
    try_cast({{ json_text('m.document', '$.total_time') }} as double) as total_time_s,
    try_cast({{ json_text('m.document', '$.working_time') }} as double) as working_time_s,
    {{ json_fragment('m.document', '$.metadata') }} as metadata_json,
    {{ json_fragment('m.document', '$.model_usage') }} as model_usage_json,
    {{ json_fragment('m.document', '$.role_usage') }} as role_usage_json,
    m.has_nonfinite_literals,
    m.load_id,
    m.document_sha256
from members as m
