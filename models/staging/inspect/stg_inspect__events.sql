{#-
  One row per (log, sample, epoch, event): the sample's event transcript as inspect_ai stored it, typed to what a
  timeline or latency question needs: the event kind (model, tool, score, span_begin, ...), when it happened, its
  working time, for a span_begin or span_end the span it marks, for a span_begin the span's parent, type and name
  (a scorer's span is type `scorer`, named for the scorer) and, for a model call, the model, its role and the
  call's token usage.
-#}
with members as (select * from {{ ref('base_inspect__sample_members') }})

select
    {{ qualified('m', inspect_sample_grain()) }},
    ev.position as event_index,
    {{ json_text('ev.value', '$.event') }} as event_kind,
    {{ json_text('ev.value', '$.span_id') }} as span_id,
    case
        when {{ json_text('ev.value', '$.event') }} in ('span_begin', 'span_end')
            then {{ json_text('ev.value', '$.id') }}
    end as marked_span_id,
    {{ json_text('ev.value', '$.parent_id') }} as span_parent_id,
    {{ json_text('ev.value', '$.type') }} as span_type,
    {{ json_text('ev.value', '$.name') }} as span_name,
    {{ parse_utc_timestamp(json_text('ev.value', '$.timestamp')) }} as event_at,
    try_cast({{ json_text('ev.value', '$.working_start') }} as double) as working_start_s,
    try_cast({{ json_text('ev.value', '$.working_time') }} as double) as working_time_s,
    {{ json_text('ev.value', '$.model') }} as model,
    {{ json_text('ev.value', '$.role') }} as model_role,
    {{ try_cast_text(json_text('ev.value', '$.output.usage.input_tokens'), 'bigint') }} as input_tokens,
    {{ try_cast_text(json_text('ev.value', '$.output.usage.output_tokens'), 'bigint') }} as output_tokens,
    {{ try_cast_text(json_text('ev.value', '$.output.usage.total_tokens'), 'bigint') }} as total_tokens,
    {{ json_text('ev.value', '$.error') }} as error,
    m.load_id
from members as m
{{ json_each('m.document', '$.events', 'ev') }}
