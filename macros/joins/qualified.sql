{#-
  qualified(alias, columns): "alias.c1, alias.c2, ..." for a select list or a GROUP BY (alias none: the
  columns unqualified). A model names its grain once ({% set %} at its top) and each CTE that selects,
  groups or joins on it says {{ qualified('c', grain) }}: a key added to the grain cannot be missed in
  one of the CTEs.
-#}
{% macro qualified(alias, columns) -%}
    {%- set q = alias ~ '.' if alias else '' -%}
    {%- for c in columns %}{{ q }}{{ c }}{{ ', ' if not loop.last }}{% endfor -%}
{%- endmacro %}
