{#-
  line_key(file_expr, line_expr): the stable key of one source line (run_key, turn_key,
  measurement_key): md5 of '<source_file>:<source_line>'.
-#}
{% macro line_key(file_expr, line_expr) -%}
    {{ return(adapter.dispatch('line_key', 'evalhouse')(file_expr, line_expr)) }}
{%- endmacro %}

{% macro default__line_key(file_expr, line_expr) -%}
    md5({{ file_expr }} || ':' || cast({{ line_expr }} as varchar))
{%- endmacro %}
