{#-
  One row per header-like member of an inspect_ai log: header.json (a finished log: success, error, cancelled)
  and _journal/start.json (written when the run starts; a killed run has only this). Typed; the status is the
  log's own (NULL on a start member).
-#}
with members as (select * from {{ ref('base_inspect__header_members') }})

select
    m.source_file,
    m.log_format,
    m.member_kind,
    {{ json_text('m.document', '$.status') }} as status,
    {{ json_text('m.document', '$.eval.eval_id') }} as eval_id,
    {{ json_text('m.document', '$.eval.run_id') }} as run_id,
    {{ json_text('m.document', '$.eval.task') }} as task,
    {{ json_text('m.document', '$.eval.task_id') }} as task_id,
    {{ json_text('m.document', '$.eval.task_version') }} as task_version,
    {{ json_fragment('m.document', '$.eval.task_args') }} as task_args_json,
    {{ json_text('m.document', '$.eval.model') }} as model,
    {{ parse_utc_timestamp(json_text('m.document', '$.eval.created')) }} as created_at,
    {{ try_cast_text(json_text('m.document', '$.eval.config.epochs'), 'integer') }} as epochs,
    coalesce({{ try_cast_text(json_text('m.document', '$.eval.config.score_on_error'), 'boolean') }}, false) as score_on_error,
    coalesce({{ try_cast_text(json_text('m.document', '$.eval.config.log_samples'), 'boolean') }}, true) as log_samples,
    {{ try_cast_text(json_text('m.document', '$.eval.dataset.samples'), 'integer') }} as dataset_samples,
    {{ json_text('m.document', '$.eval.packages.inspect_ai') }} as inspect_version,
    {{ try_cast_text(json_text('m.document', '$.results.total_samples'), 'integer') }} as total_samples_stored,
    {{ try_cast_text(json_text('m.document', '$.results.completed_samples'), 'integer') }} as completed_samples_stored,
    {{ json_text('m.document', '$.error.message') }} as error_message,
    {{ json_fragment('m.document', '$.stats.model_usage') }} as model_usage_json,
    {{ json_fragment('m.document', '$.stats.role_usage') }} as role_usage_json,
    m.has_nonfinite_literals,
    m.load_id,
    m.document_sha256
from members as m
