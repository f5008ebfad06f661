{#-
  Python's spelling of values, for names a harness made with str() (inspect_ai's grouped() names a group
  str(metadata value)). Engine-specific SQL behind adapter.dispatch.
-#}

{#-
  python_float_str(x): str() of a Python float (repr: the shortest digits that read back as x; fixed notation from
  1e-4 to below 1e16, with at least one decimal, else d.ddde+XX): 2.0, 0.1, 1e-07, 1.5e+300, -0.0, nan, inf.
-#}
{% macro python_float_str(x) -%}
    {{ return(adapter.dispatch('python_float_str', 'evalhouse')(x)) }}
{%- endmacro %}
{#- DuckDB casts a double as Python spells it: the shortest digits, the same notation, -0.0, nan, inf. -#}
{% macro default__python_float_str(x) -%}
    cast({{ x }} as varchar)
{%- endmacro %}
{#-
  Spark casts a double as Java spells it (1.0E20, 1.0E-7; fixed from 1e-3 to below 1e7): its digits D (no dot, no
  leading or trailing zeros) and decimal exponent e (x = D[0].D[1:] x 10^e) are spelled again by Python's rule.
  Java 17 gives the shortest digits but for a few values (a subnormal such as 5e-324 reads 4.9e-324).
-#}
{% macro spark__python_float_str(x) -%}
    {%- set s = "cast(abs(" ~ x ~ ") as string)" -%}
    {%- set sci = s ~ " like '%E%'" -%}
    {%- set int_part = "substring_index(" ~ s ~ ", '.', 1)" -%}
    {%- set frac_part = "substring_index(" ~ s ~ ", '.', -1)" -%}
    {%- set digits = "regexp_replace(regexp_replace(case when " ~ sci ~ " then replace(substring_index(" ~ s ~ ", 'E', 1), '.', '') else concat(" ~ int_part ~ ", " ~ frac_part ~ ") end, '^0+', ''), '0+$', '')" -%}
    {%- set exponent = "case when " ~ sci ~ " then cast(substring_index(" ~ s ~ ", 'E', -1) as int) when " ~ int_part ~ " <> '0' then length(" ~ int_part ~ ") - 1 else -(length(" ~ frac_part ~ ") - length(ltrim('0', " ~ frac_part ~ ")) + 1) end" -%}
    (case
        when isnan({{ x }}) then 'nan'
        when {{ x }} = double('inf') then 'inf'
        when {{ x }} = double('-inf') then '-inf'
        when {{ x }} = 0 then case when cast({{ x }} as string) like '-%' then '-0.0' else '0.0' end
        else concat(case when {{ x }} < 0 then '-' else '' end, case
            when {{ exponent }} >= 16 or {{ exponent }} < -4 then concat(
                substr({{ digits }}, 1, 1),
                case when length({{ digits }}) > 1 then concat('.', substr({{ digits }}, 2)) else '' end,
                case when {{ exponent }} < 0 then 'e-' else 'e+' end,
                case when abs({{ exponent }}) < 10 then '0' else '' end, cast(abs({{ exponent }}) as string))
            when {{ exponent }} < 0 then concat('0.', repeat('0', -{{ exponent }} - 1), {{ digits }})
            when length({{ digits }}) > {{ exponent }} + 1
                then concat(substr({{ digits }}, 1, {{ exponent }} + 1), '.', substr({{ digits }}, {{ exponent }} + 2))
            else concat(rpad({{ digits }}, {{ exponent }} + 1, '0'), '.0')
        end)
    end)
{%- endmacro %}

{#-
  json_tokens_mapped(expr, body): the JSON text `expr` split into its tokens (a string with its quotes, a number or
  literal, one of , : [ ] { }; white space dropped), each mapped by the SQL expression `body` of the token `tok`,
  and joined again.
-#}
{% macro json_tokens_mapped(expr, body) -%}
    {{ return(adapter.dispatch('json_tokens_mapped', 'evalhouse')(expr, body)) }}
{%- endmacro %}
{% macro default__json_tokens_mapped(expr, body) -%}
    array_to_string(list_transform(
        regexp_extract_all({{ expr }}, '"(?:[^"\\]|\\.)*"|[^",:\[\]{}\s]+|[,:\[\]{}]'),
        lambda tok: {{ body }}
    ), '')
{%- endmacro %}
{#- Spark: possessive quantifiers, so that a long string does not overflow Java's regex stack. -#}
{% macro spark__json_tokens_mapped(expr, body) -%}
    array_join(transform(
        regexp_extract_all({{ expr }}, '("[^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+"|[^",:\\[\\]{}\\s]++|[,:\\[\\]{}])', 1),
        tok -> {{ body }}
    ), '')
{%- endmacro %}
