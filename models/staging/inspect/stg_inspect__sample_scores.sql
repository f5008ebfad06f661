{#-
  One row per (log, sample, epoch, scorer): the score as the sample holds it. `value_kind` says what the value
  is (letter C / I / P / N, number, boolean, text, object, null); `value_float` is inspect_ai's value_to_float
  of it (C 1, P 0.5, I and N 0; true 1, false 0; numbers as they are; "yes" / "true" 1, "no" / "false" 0; text that
  reads as a finite number as that number; 0 for other text, a list or a dict, as inspect_ai's metrics count them),
  NULL for a JSON null.
-#}
with scores as (
    select
        {{ qualified('b', inspect_sample_grain()) }},
        b.scorer,
        b.scorer_position,
        {{ json_type('b.score_json', '$.value') }} as value_json_type,
        {{ json_text('b.score_json', '$.value') }} as value_text,
        {{ json_fragment('b.score_json', '$.value') }} as value_json,
        {{ json_text('b.score_json', '$.answer') }} as answer,
        b.load_id
    from {{ ref('base_inspect__sample_scores') }} as b
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
