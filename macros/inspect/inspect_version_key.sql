{#-
  inspect_version_key(expr): an inspect_ai version string ('0.3.184', '0.3.90', '0.3.185.dev3+gabc') as one
  comparable integer, major * 1e6 + minor * 1e3 + patch (the first three dot-separated parts; NULL when they are
  not numbers). A column-level helper of int_inspect__sample_spend (the token convention depends on it).
-#}
{% macro inspect_version_key(expr) -%}
    (
        try_cast({{ split_part_text(expr, '.', 1) }} as bigint) * 1000000
        + try_cast({{ split_part_text(expr, '.', 2) }} as bigint) * 1000
        + try_cast({{ split_part_text(expr, '.', 3) }} as bigint)
    )
{%- endmacro %}
