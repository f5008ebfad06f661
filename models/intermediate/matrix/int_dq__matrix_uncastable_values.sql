{#-
  Typing (what the logs claim): one row per (matrix turn, field) whose value was present but did not cast,
  plus file stems that are not `<chat>__<coder>`, unknown turn types, cached > prompt tokens, lines that are not
  JSON objects and loader repairs. The typed value is NULL in staging; the turn is kept.
-#}
{%- set flags = [
    ('t.turn_index_invalid', 'turn_index did not cast to an integer'),
    ('t.rep_invalid', 'rep did not cast to an integer'),
    ('t.check_passed_invalid', 'check_passed did not cast to a boolean'),
    ('t.prompt_tokens_invalid', 'prompt_tokens did not cast to an integer'),
    ('t.completion_tokens_invalid', 'completion_tokens did not cast to an integer'),
    ('t.cached_tokens_invalid', 'cached_tokens did not cast to an integer'),
    ('t.cost_usd_invalid', 'cost_usd did not cast to a number'),
    ('t.latency_s_invalid', 'latency_s did not cast to a number'),
    ('t.cell_invalid', 'file stem is not <chat model>__<coder model>'),
    ('t.turn_type_invalid', 'type is neither chat nor coder'),
    ('t.cached_exceeds_prompt', 'cached_tokens exceeds prompt_tokens (prompt must include cached)'),
    ('not t.record_is_object', 'the line is not a JSON object'),
] -%}

with turns as (select * from {{ ref('stg_matrix__turns') }}),

findings as (
    {%- for flag, what in flags %}
        select
            'TYPE' as rule_id,
            t.source_file,
            t.source_line,
            '{{ what }}; typed as NULL' as detail
        from turns as t
        where {{ flag }}
        union all
    {%- endfor %}
    select
        'LOAD' as rule_id,
        t.source_file,
        t.source_line,
        'loader repaired the line: ' || t.repaired as detail
    from turns as t
    where t.is_repaired
)

select
    f.rule_id,
    'matrix' as source_family,
    f.source_file,
    f.source_line,
    f.detail
from findings as f
