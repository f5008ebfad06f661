with iterations as (select * from {{ ref('base_coder_eval__task_iterations') }})

select
    {{ coder_eval_replicate_identity('i') }},
    i.iteration_index,
    e.position as error_index,
    {{ parse_utc_timestamp(json_text('e.value', '$.at')) }} as error_at,
    {{ json_text('e.value', '$.message') }} as error_message,
    {{ json_text('e.value', '$.kind') }} as error_kind,
    {{ coder_eval_typed('e.value', '$.http_status', 'integer') }} as http_status,
    {{ coder_eval_typed('e.value', '$.will_retry', 'boolean') }} as will_retry,
    {{ json_text('e.value', '$.details') }} as error_details,
    {{ coder_eval_provenance('i') }}
from iterations as i
{{ json_each('i.iteration_json', '$.provider_errors', 'e') }}
