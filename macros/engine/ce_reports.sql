{#-
  Engine-specific JSON helpers used by the coder-eval report models (variant.json,
  experiment.json, suite.json). Owned by the ce_variant area.
-#}

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
