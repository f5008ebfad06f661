{#-
  jsonl_typed_field(expr, path, name, type): three columns for one JSON field of a brownfield record:
    <name>_raw      the value as text (NULL when absent or JSON null),
    <name>          try_cast of that text to `type` (NULL when it does not cast),
    <name>_invalid  true when a value is present but does not cast (flag, never a drop).
  JSON access goes through macros/engine/json.sql.
-#}
{% macro jsonl_typed_field(expr, path, name, type) -%}
    {{ json_text(expr, path) }} as {{ name }}_raw,
    try_cast({{ json_text(expr, path) }} as {{ engine_type(type) }}) as {{ name }},
    coalesce({{ json_text(expr, path) }} is not null
        and try_cast({{ json_text(expr, path) }} as {{ engine_type(type) }}) is null, false) as {{ name }}_invalid
{%- endmacro %}
