{#-
  same_keys(a, b, keys, null_safe=[]): the join predicate "rows `a` and `b` agree on these columns":
  a.k = b.k for each of `keys`, and a.k is not distinct from b.k for each of `null_safe` (columns where
  NULL on both sides is a match: an optional task argument, a reducer a log may not declare). The key list
  of a join reads at a glance, and a forgotten null-safe comparison is visible in the argument.
-#}
{% macro same_keys(a, b, keys, null_safe=[]) -%}
    {%- set parts = [] -%}
    {%- for k in keys %}{% do parts.append(a ~ '.' ~ k ~ ' = ' ~ b ~ '.' ~ k) %}{% endfor -%}
    {%- for k in null_safe %}{% do parts.append(a ~ '.' ~ k ~ ' is not distinct from ' ~ b ~ '.' ~ k) %}{% endfor -%}
    {{ parts | join(' and ') }}
{%- endmacro %}
