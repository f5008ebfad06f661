{#-
  Engine-specific date/time parsing. Every model parses timestamps through these macros, never
  through engine functions directly.

  parse_utc_timestamp(expr)  -> timestamptz (an instant in UTC), or NULL when `expr` does not parse.
      ISO-8601 text with an offset ('Z', '+03:00', '+0530', '-07') is converted to UTC;
      naive text (no offset) is read AS UTC (and should be flagged with is_naive_timestamp).
  is_naive_timestamp(expr)   -> boolean: true when `expr` parses as a timestamp but carries no
      UTC offset, false when it carries one, NULL when `expr` is NULL or does not parse.
-#}

{#- Regex (case-insensitive) for a trailing UTC offset designator after a time of day. -#}
{% macro _iso_offset_regex() -%}
'[T ]\d{1,2}:\d{2}(:\d{2}([.,]\d+)?)?\s*(z|utc|[+-]\d{2}(:?\d{2})?)$'
{%- endmacro %}

{% macro is_naive_timestamp(expr) -%}
    {{ return(adapter.dispatch('is_naive_timestamp', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__is_naive_timestamp(expr) -%}
    (case
        when try_cast(trim(cast({{ expr }} as {{ dbt.type_string() }})) as {{ type_timestamptz() }}) is null then null
        else not regexp_matches(trim(cast({{ expr }} as {{ dbt.type_string() }})), {{ evalhouse._iso_offset_regex() }}, 'i')
    end)
{%- endmacro %}

{% macro parse_utc_timestamp(expr) -%}
    {{ return(adapter.dispatch('parse_utc_timestamp', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__parse_utc_timestamp(expr) -%}
    (case
        when regexp_matches(trim(cast({{ expr }} as {{ dbt.type_string() }})), {{ evalhouse._iso_offset_regex() }}, 'i')
            then try_cast(trim(cast({{ expr }} as {{ dbt.type_string() }})) as {{ type_timestamptz() }})
        else timezone('UTC', try_cast(trim(cast({{ expr }} as {{ dbt.type_string() }})) as timestamp))
    end)
{%- endmacro %}

{#- Spark: a cast reads an offset ('Z', '+03:00', '+0530') as an instant and naive text in the session zone (UTC). -#}
{% macro spark__is_naive_timestamp(expr) -%}
    (case
        when try_cast(trim(cast({{ expr }} as string)) as timestamp) is null then null
        else not regexp_like(trim(cast({{ expr }} as string)), concat('(?i)', {{ evalhouse._iso_offset_regex() | replace('\\', '\\\\') }}))
    end)
{%- endmacro %}

{% macro spark__parse_utc_timestamp(expr) -%}
    try_cast(trim(cast({{ expr }} as string)) as timestamp)
{%- endmacro %}
