{#-
  Engine-specific helpers for the matrix, layered and cost models (owner: matrix engineer).

  file_stem(expr)        -> the file name of path `expr` without directory and extension
                            ('/x/logs/a__b.jsonl' -> 'a__b').
  utc_time_of_day(expr)  -> the UTC wall-clock time of day (type time) of timestamptz `expr`.
  split_part_text(expr, sep, n) -> the n-th (1-based) part of `expr` split on literal `sep`, NULL
                            when there are fewer parts.
-#}

{% macro file_stem(expr) -%}
    {{ return(adapter.dispatch('file_stem', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__file_stem(expr) -%}
    {#- the name without .jsonl and a logrotate suffix (.1, -20261201, .2.gz): runs.jsonl.1 is the file runs -#}
    regexp_replace(regexp_replace({{ expr }}, '^.*[/\\\\]', ''), '\.jsonl([.-][0-9][0-9-]*)?(\.gz)?$', '')
{%- endmacro %}
{#- Spark reads a backslash in a string literal as an escape: each one is doubled. -#}
{% macro spark__file_stem(expr) -%}
    {#- the name without .jsonl and a logrotate suffix (.1, -20261201, .2.gz): runs.jsonl.1 is the file runs -#}
    regexp_replace(regexp_replace({{ expr }}, '^.*[/\\\\\\\\]', ''), '\\.jsonl([.-][0-9][0-9-]*)?(\\.gz)?$', '')
{%- endmacro %}

{% macro utc_time_of_day(expr) -%}
    {{ return(adapter.dispatch('utc_time_of_day', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__utc_time_of_day(expr) -%}
    cast(timezone('UTC', {{ expr }}) as time)
{%- endmacro %}
{#- Spark has no time type: 'HH:mm:ss.SSSSSS' text, which orders as the time does against the seed's 'HH:MM:SS'. -#}
{% macro spark__utc_time_of_day(expr) -%}
    date_format({{ expr }}, 'HH:mm:ss.SSSSSS')
{%- endmacro %}

{% macro split_part_text(expr, sep, n) -%}
    {{ return(adapter.dispatch('split_part_text', 'evalhouse')(expr, sep, n)) }}
{%- endmacro %}
{% macro default__split_part_text(expr, sep, n) -%}
    nullif(split_part({{ expr }}, '{{ sep }}', {{ n }}), '')
{%- endmacro %}
