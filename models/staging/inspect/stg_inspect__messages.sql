{#-
  One row per (log, sample, epoch, message): the sample's conversation as inspect_ai stored it, typed. `content_text`
  is the content when it is a plain string (inspect may store a long string as an `attachment://` reference, kept as
  written); a list of content parts stays in `content_json`.
-#}
with members as (select * from {{ ref('base_inspect__sample_members') }})

select
    {{ qualified('m', inspect_sample_grain()) }},
    msg.position as message_index,
    {{ json_text('msg.value', '$.id') }} as message_id,
    {{ json_text('msg.value', '$.role') }} as role,
    {{ json_text('msg.value', '$.source') }} as message_source,
    {{ json_text('msg.value', '$.model') }} as model,
    case when {{ json_type('msg.value', '$.content') }} = 'VARCHAR' then {{ json_text('msg.value', '$.content') }} end
        as content_text,
    {{ json_fragment('msg.value', '$.content') }} as content_json,
    coalesce({{ json_array_length('msg.value', '$.tool_calls') }}, 0) as n_tool_calls,
    {{ json_text('msg.value', '$.tool_call_id') }} as tool_call_id,
    m.load_id
from members as m
{{ json_each('m.document', '$.messages', 'msg') }}
