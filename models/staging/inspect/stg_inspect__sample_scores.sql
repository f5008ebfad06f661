{#-
  One row per (log, sample, epoch, scorer): the score as the sample holds it. `value_kind` says what the value
  is (letter C / I / P / N, number, boolean, text, object, null); `value_float` is inspect_ai's value_to_float
  of it (C 1, P 0.5, I and N 0; true 1, false 0; numbers as they are; "yes" / "true" 1, "no" / "false" 0),
  NULL where it has none (an object, other text).
-#}
with members as (
    select * from {{ ref('base_inspect__members') }}
    where member_kind = 'sample'
),

scores as (
    select
        {{ qualified('m', inspect_sample_grain()) }},
        sc.key as scorer,
        sc.position as scorer_position,
        {{ json_type('sc.value', '$.value') }} as value_json_type,
        {{ json_text('sc.value', '$.value') }} as value_text,
        {{ json_fragment('sc.value', '$.value') }} as value_json,
        {{ json_text('sc.value', '$.answer') }} as answer,
        m.load_id
    from members as m
    {{ json_each_entry('m.document', '$.scores', 'sc') }}
)

select
    {{ qualified('s', inspect_sample_grain()) }},
    s.scorer,
    s.scorer_position,
    case
        when s.value_json_type is null or s.value_json_type = 'NULL' then 'null'
        when s.value_json_type = 'VARCHAR' and s.value_text in ('C', 'I', 'P', 'N') then 'letter'
        when s.value_json_type = 'VARCHAR' then 'text'
        when s.value_json_type = 'BOOLEAN' then 'boolean'
        when s.value_json_type in ('OBJECT', 'ARRAY') then 'object'
        else 'number'
    end as value_kind,
    s.value_text,
    s.value_json,
    {{ inspect_value_to_float('s.value_json_type', 's.value_text') }} as value_float,
    s.answer,
    s.load_id
from scores as s
