{#-
  Engine-specific JSON access. Every model reads JSON through these macros, never through
  engine functions directly, so the same models can run on another engine by adding an
  implementation here (e.g. `spark__json_text` with get_json_object).
  Paths are JSONPath strings such as '$.change_detail' or '$.config.primary'.
-#}

{#- The value at `path` as text: strings unquoted, numbers/booleans as their JSON text, NULL when absent or JSON null. -#}
{% macro json_text(expr, path) -%}
    {{ return(adapter.dispatch('json_text', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_text(expr, path) -%}
    json_extract_string({{ expr }}, '{{ path }}')
{%- endmacro %}
{% macro spark__json_text(expr, path) -%}
    get_json_object({{ expr }}, '{{ path }}')
{%- endmacro %}

{#- The JSON fragment at `path` (object / array / scalar), as JSON text. -#}
{% macro json_fragment(expr, path) -%}
    {{ return(adapter.dispatch('json_fragment', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_fragment(expr, path) -%}
    json_extract({{ expr }}, '{{ path }}')
{%- endmacro %}
{% macro spark__json_fragment(expr, path) -%}
    get_json_object({{ expr }}, '{{ path }}')
{%- endmacro %}

{#- The JSON type name at `path`: 'VARCHAR', 'DOUBLE', 'UBIGINT', 'BIGINT', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL', or NULL when absent. -#}
{% macro json_type(expr, path) -%}
    {{ return(adapter.dispatch('json_type', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_type(expr, path) -%}
    json_type({{ expr }}, '{{ path }}')
{%- endmacro %}

{#- Whether the key at `path` exists (even with a JSON null value). -#}
{% macro json_has(expr, path) -%}
    {{ return(adapter.dispatch('json_has', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_has(expr, path) -%}
    ({{ expr }} is not null and json_exists({{ expr }}, '{{ path }}'))
{%- endmacro %}

{#- Number of elements of the JSON array at `path` (NULL when absent or not an array). -#}
{% macro json_array_length(expr, path) -%}
    {{ return(adapter.dispatch('json_array_length', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_array_length(expr, path) -%}
    case when json_type({{ expr }}, '{{ path }}') = 'ARRAY' then json_array_length({{ expr }}, '{{ path }}') end
{%- endmacro %}

{#-
  Unnest the JSON array at `path` of `relation_alias.column` into rows.
  Use in a FROM clause after the relation:  from src as s {{ json_each('s.record', '$.items', 'e') }}
  exposes e.value (JSON text of the element) and e.position (0-based index).
-#}
{% macro json_each(expr, path, alias) -%}
    {{ return(adapter.dispatch('json_each', 'evalhouse')(expr, path, alias)) }}
{%- endmacro %}
{% macro default__json_each(expr, path, alias) -%}
    cross join lateral (
        select
            je.value::varchar as value,
            je.key::integer as position
        from json_each({{ expr }}, '{{ path }}') as je
        where json_type({{ expr }}, '{{ path }}') = 'ARRAY'
    ) as {{ alias }}
{%- endmacro %}

{#-
  Unnest the JSON OBJECT at `path` of `expr` into one row per entry, in document order.
  Use in a FROM clause after the relation:  from src as s {{ json_each_entry('s.document', '$.variant_aggregates', 'va') }}
  exposes va.key (the entry's key, text), va.value (JSON text of the entry's value) and
  va.position (0-based index in document order). Keys may contain any character ('/', '.'),
  so they are never spliced into a JSONPath.
-#}
{% macro json_each_entry(expr, path, alias) -%}
    {{ return(adapter.dispatch('json_each_entry', 'evalhouse')(expr, path, alias)) }}
{%- endmacro %}
{% macro default__json_each_entry(expr, path, alias) -%}
    cross join lateral (
        select
            je.key::varchar as key,
            je.value::varchar as value,
            (row_number() over (order by je.id) - 1)::integer as position
        from json_each({{ expr }}, '{{ path }}') as je
        where json_type({{ expr }}, '{{ path }}') = 'OBJECT'
    ) as {{ alias }}
{%- endmacro %}

{#- AGGREGATE: concatenate `expr` with `sep`, ordered by `order_by` (NULLs skipped). -#}
{% macro ordered_string_agg(expr, sep, order_by) -%}
    {{ return(adapter.dispatch('ordered_string_agg', 'evalhouse')(expr, sep, order_by)) }}
{%- endmacro %}
{% macro default__ordered_string_agg(expr, sep, order_by) -%}
    string_agg({{ expr }}, '{{ sep }}' order by {{ order_by }})
{%- endmacro %}
