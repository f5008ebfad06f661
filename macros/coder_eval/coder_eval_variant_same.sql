{#- Null-safe numeric equality within 1e-9 (both NULL counts as equal). NULL when exactly one side is NULL: wrap in coalesce(..., false). -#}
{% macro coder_eval_variant_same(a, b) -%}
    (({{ a }} is null and {{ b }} is null) or abs(cast({{ a }} as double) - cast({{ b }} as double)) <= 1e-9)
{%- endmacro %}
