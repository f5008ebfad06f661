{#-
  jsonl_typed_field(expr, path, name, type): three columns for one JSON field of a brownfield record:
    <name>_raw      the value as text (NULL when absent or JSON null),
    <name>          that text cast to `type` as DuckDB's try_cast reads it (NULL when it does not cast),
    <name>_invalid  true when a value is present but does not cast (flag, never a drop).
  JSON access goes through macros/engine/json.sql.
-#}
{% macro jsonl_typed_field(expr, path, name, type) -%}
    {{ json_text(expr, path) }} as {{ name }}_raw,
    {{ try_cast_text(json_text(expr, path), type) }} as {{ name }},
    coalesce({{ json_text(expr, path) }} is not null
        and {{ try_cast_text(json_text(expr, path), type) }} is null, false) as {{ name }}_invalid
{%- endmacro %}
