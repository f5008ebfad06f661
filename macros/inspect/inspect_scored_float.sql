{#-
  inspect_scored_float(value): a score's value_to_float as inspect_ai's metrics and reducers take it: NULL (unscored)
  for NaN, which inspect_ai writes for a score that has no value (pass_at_k over fewer than k scored epochs, a
  scorer's NaN) and leaves out of its metrics; the value itself otherwise.
-#}
{% macro inspect_scored_float(value) -%}
    (case when isnan({{ value }}) then null else {{ value }} end)
{%- endmacro %}
