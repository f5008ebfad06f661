{#-
  inspect_group_name(json_value): the name inspect_ai's grouped() gives the group of a sample-metadata value, which
  is Python's str() of it: a string as it is; anything else token by token as Python's repr spells it
  (inspect_group_name_token): True / False / None, an integer as written, a float as Python spells it
  (python_float_str: 1e-07, 2.0), a list or dict as "['a', 'b']", "{'k': 1}", its strings quoted as repr quotes
  them (single quotes, double where the string has a single quote and no double one; backslash, the quote,
  newline, return and tab escaped). `json_value` is JSON text. A column-level helper of stg_inspect__sample_metadata.
-#}
{% macro inspect_group_name(json_value) -%}
    case
        when {{ json_value }} like '"%' then {{ json_text(json_value, '$') }}
        else {{ json_tokens_mapped(json_value, inspect_group_name_token('tok')) }}
    end
{%- endmacro %}

{#-
  One JSON token of a list or dict as Python's repr spells it (inspect_group_name). Backslash, quotes and control
  characters by chr(), which both engines read alike (a backslash in a literal they do not).
-#}
{% macro inspect_group_name_token(tok) -%}
    {%- set s = json_text(tok, '$') -%}
    {%- set dq = "(instr(" ~ s ~ ", chr(39)) > 0 and instr(" ~ s ~ ", chr(34)) = 0)" -%}
    {%- set escaped = "replace(replace(replace(replace(" ~ s ~ ", chr(92), concat(chr(92), chr(92))), chr(10), concat(chr(92), 'n')), chr(13), concat(chr(92), 'r')), chr(9), concat(chr(92), 't'))" -%}
    case
        when {{ tok }} like '"%' and {{ dq }} then concat(chr(34), {{ escaped }}, chr(34))
        when {{ tok }} like '"%' then concat(chr(39), replace({{ escaped }}, chr(39), concat(chr(92), chr(39))), chr(39))
        when {{ tok }} = 'true' then 'True'
        when {{ tok }} = 'false' then 'False'
        when {{ tok }} = 'null' then 'None'
        when {{ tok }} = ',' then ', '
        when {{ tok }} = ':' then ': '
        when {{ tok }} in ('[', ']', '{', '}') then {{ tok }}
        when {{ tok }} like '%.%' or lower({{ tok }}) like '%e%' or {{ tok }} in ('NaN', 'Infinity', '-Infinity')
            then {{ inspect_group_name_float(tok) }}
        else {{ tok }}
    end
{%- endmacro %}

{#- A JSON number's text as Python's str() of the float (a -0 stays -0.0 where the engine reads it as a decimal). -#}
{% macro inspect_group_name_float(text) -%}
    case when {{ text }} like '-%' and cast({{ text }} as double) = 0 then '-0.0' else {{ python_float_str('cast(' ~ text ~ ' as double)') }} end
{%- endmacro %}
