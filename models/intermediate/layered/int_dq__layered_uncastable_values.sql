{#-
  Typing (what the logs claim): one row per (layered measurement, field) whose value was present but did not
  cast, plus unknown measurement modes, cached > prompt tokens, lines that are not JSON objects and loader
  repairs. The typed value is NULL in staging; the measurement is kept.
-#}
{#- a foreign record (none of the family's fields) is its own finding (int_dq__layered_foreign_records) -#}
{%- set flags = [
    ('m.rep_invalid', 'rep did not cast to an integer'),
    ('m.passed_invalid', 'passed did not cast to a boolean'),
    ('m.l1_cost_invalid', 'l1_cost did not cast to a number'),
    ('m.l1_latency_invalid', 'l1_latency did not cast to a number'),
    ('m.l2_cost_invalid', 'l2_cost did not cast to a number'),
    ('m.l2_latency_invalid', 'l2_latency did not cast to a number'),
    ('m.l3_cost_invalid', 'l3_cost did not cast to a number'),
    ('m.l3_latency_invalid', 'l3_latency did not cast to a number'),
    ('m.total_cost_invalid', 'total_cost did not cast to a number'),
    ('m.total_latency_invalid', 'total_latency did not cast to a number'),
    ('m.prompt_tokens_invalid', 'prompt_tokens did not cast to an integer'),
    ('m.completion_tokens_invalid', 'completion_tokens did not cast to an integer'),
    ('m.cached_tokens_invalid', 'cached_tokens did not cast to an integer'),
    ('(m.measurement_invalid and not coalesce(m.is_foreign_record, false))',
        'measurement is missing or not one of l1, l2plan, l2conv, l3, total'),
    ('m.cached_exceeds_prompt', 'cached_tokens exceeds prompt_tokens (prompt must include cached)'),
    ('not m.record_is_object', 'the line is not a JSON object'),
] -%}

with measurements as (select * from {{ ref('stg_layered__measurements') }}),

findings as (
    {%- for flag, what in flags %}
        select
            'TYPE' as rule_id,
            m.source_file,
            m.source_line,
            '{{ what }}; typed as NULL' as detail
        from measurements as m
        where {{ flag }}
        union all
    {%- endfor %}
    select
        'LOAD' as rule_id,
        m.source_file,
        m.source_line,
        'loader repaired the line: ' || m.repaired as detail
    from measurements as m
    where m.is_repaired
)

select
    f.rule_id,
    'layered' as source_family,
    f.source_file,
    f.source_line,
    f.detail
from findings as f
