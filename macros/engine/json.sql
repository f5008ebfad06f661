{#-
  Engine-specific JSON access. Every model reads JSON through these macros, never through
  engine functions directly, so the same models can run on another engine by adding an
  implementation here (e.g. `spark__json_text` with get_json_object).
  Paths are JSONPath strings such as '$.change_detail' or '$.config.primary'.
  Non-finite floats: Python's json module writes NaN, Infinity and -Infinity as bare literals, which DuckDB reads
  as floats (json_type DOUBLE, json_text 'NaN') and Spark's JSON functions reject, reading the whole document as
  NULL. Every Spark macro reads its input through spark_json_readable, and gives such a float back as DuckDB does.
-#}

{#-
  Spark: `expr` as JSON Spark can parse. A document that has a bare NaN, Infinity or -Infinity and does not parse
  gets each one, outside strings, as the string 'evalhouse:nonfinite:<literal>' (the text is split into string
  tokens and the rest, and only the rest is rewritten); any other document is left as it is.
-#}
{% macro spark_json_readable(expr) -%}
    (case
        when (instr({{ expr }}, 'NaN') > 0 or instr({{ expr }}, 'Infinity') > 0) and try_parse_json({{ expr }}) is null
            then array_join(transform(
                regexp_extract_all({{ expr }}, '("[^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+"|[^"]++)', 1),
                t -> case when t like '"%' then t else regexp_replace(t, '(-?Infinity|NaN)', '"evalhouse:nonfinite:$1"') end
            ), '')
        else {{ expr }}
    end)
{%- endmacro %}

{#- Spark: a string read from a readable document as the text DuckDB gives: a marked float as its literal. -#}
{% macro spark_json_unmarked(text) -%}
    regexp_replace({{ text }}, '^evalhouse:nonfinite:', '')
{%- endmacro %}

{#- Spark: JSON text with each marked float as its bare literal again (an object or array keeps DuckDB's text). -#}
{% macro spark_json_fragment_unmarked(text) -%}
    regexp_replace({{ text }}, '"evalhouse:nonfinite:(-?Infinity|NaN)"', '$1')
{%- endmacro %}

{#- Spark: whether a variant is a marked float. -#}
{% macro spark_json_is_marked(variant) -%}
    coalesce(try_variant_get({{ variant }}, '$', 'string') like 'evalhouse:nonfinite:%', false)
{%- endmacro %}

{#- The value at `path` as text: strings unquoted, numbers/booleans as their JSON text, NULL when absent or JSON null. -#}
{% macro json_text(expr, path) -%}
    {{ return(adapter.dispatch('json_text', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_text(expr, path) -%}
    json_extract_string({{ expr }}, '{{ path }}')
{%- endmacro %}
{% macro spark__json_text(expr, path) -%}
    {{ spark_json_unmarked('get_json_object(' ~ spark_json_readable(expr) ~ ", '" ~ path ~ "')") }}
{%- endmacro %}

{#- The JSON fragment at `path` (object / array / scalar), as JSON text. -#}
{% macro json_fragment(expr, path) -%}
    {{ return(adapter.dispatch('json_fragment', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_fragment(expr, path) -%}
    json_extract({{ expr }}, '{{ path }}')
{%- endmacro %}
{#- Spark: get_json_object unquotes a string, so a string (and a JSON null) is re-serialised from the variant. -#}
{% macro spark__json_fragment(expr, path) -%}
    {%- set doc = spark_json_readable(expr) -%}
    {%- set v = "try_variant_get(try_parse_json(" ~ doc ~ "), '" ~ path ~ "')" -%}
    (case
        when {{ v }} is null then null
        when is_variant_null({{ v }}) then 'null'
        when {{ spark_json_is_marked(v) }} then {{ spark_json_unmarked("get_json_object(" ~ doc ~ ", '" ~ path ~ "')") }}
        when schema_of_variant({{ v }}) = 'STRING' then to_json({{ v }})
        else {{ spark_json_fragment_unmarked("get_json_object(" ~ doc ~ ", '" ~ path ~ "')") }}
    end)
{%- endmacro %}

{#- The JSON type name at `path`: 'VARCHAR', 'DOUBLE', 'UBIGINT', 'BIGINT', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL', or NULL when absent. -#}
{% macro json_type(expr, path) -%}
    {{ return(adapter.dispatch('json_type', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_type(expr, path) -%}
    json_type({{ expr }}, '{{ path }}')
{%- endmacro %}
{#- Spark: the variant's type, spelled as DuckDB spells JSON types (a non-negative integer is UBIGINT there). -#}
{% macro spark__json_type(expr, path) -%}
    {%- set v = "try_variant_get(try_parse_json(" ~ spark_json_readable(expr) ~ "), '" ~ path ~ "')" -%}
    (case
        when {{ v }} is null then null
        when schema_of_variant({{ v }}) = 'VOID' then 'NULL'
        when schema_of_variant({{ v }}) like 'ARRAY%' then 'ARRAY'
        when schema_of_variant({{ v }}) like 'OBJECT%' then 'OBJECT'
        when schema_of_variant({{ v }}) = 'STRING' then case when {{ spark_json_is_marked(v) }} then 'DOUBLE' else 'VARCHAR' end
        when schema_of_variant({{ v }}) = 'BOOLEAN' then 'BOOLEAN'
        when schema_of_variant({{ v }}) in ('BIGINT', 'INT', 'SMALLINT', 'TINYINT')
            then case when cast({{ v }} as bigint) >= 0 then 'UBIGINT' else 'BIGINT' end
        else 'DOUBLE'
    end)
{%- endmacro %}

{#- Whether the key at `path` exists (even with a JSON null value). -#}
{% macro json_has(expr, path) -%}
    {{ return(adapter.dispatch('json_has', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_has(expr, path) -%}
    ({{ expr }} is not null and json_exists({{ expr }}, '{{ path }}'))
{%- endmacro %}
{% macro spark__json_has(expr, path) -%}
    ({{ expr }} is not null and try_variant_get(try_parse_json({{ spark_json_readable(expr) }}), '{{ path }}') is not null)
{%- endmacro %}

{#- Number of elements of the JSON array at `path` (NULL when absent or not an array). -#}
{% macro json_array_length(expr, path) -%}
    {{ return(adapter.dispatch('json_array_length', 'evalhouse')(expr, path)) }}
{%- endmacro %}
{% macro default__json_array_length(expr, path) -%}
    case when json_type({{ expr }}, '{{ path }}') = 'ARRAY' then json_array_length({{ expr }}, '{{ path }}') end
{%- endmacro %}
{% macro spark__json_array_length(expr, path) -%}
    {%- set doc = spark_json_readable(expr) -%}
    case
        when schema_of_variant(try_variant_get(try_parse_json({{ doc }}), '{{ path }}')) like 'ARRAY%'
            then cast(json_array_length(get_json_object({{ doc }}, '{{ path }}')) as bigint)
    end
{%- endmacro %}

{#-
  Unnest the JSON array at `path` of `relation_alias.column` into rows.
  Use in a FROM clause after the relation:  from src as s {{ json_each('s.record', '$.items', 'e') }}
  exposes e.value (JSON text of the element) and e.position (0-based index).
-#}
{% macro json_each(expr, path, alias) -%}
    {{ return(adapter.dispatch('json_each', 'evalhouse')(expr, path, alias)) }}
{%- endmacro %}
{#-
  DuckDB: the list of the array's elements, unnested in the SELECT list of a lateral with no FROM. The table
  function json_each in a lateral join is superlinear in the document (a 10 MB document of 800 elements took
  seconds, the same rows from this form hundredths: BENCHMARKS.md, "Unnesting a JSON list").
-#}
{% macro default__json_each(expr, path, alias) -%}
    {%- set elements -%}
        case when json_type({{ expr }}, '{{ path }}') = 'ARRAY' then json_extract({{ expr }}, '{{ path }}[*]') end
    {%- endset %}
    cross join lateral (
        select
            unnest({{ elements }})::varchar as value,
            (generate_subscripts({{ elements }}, 1) - 1)::integer as position
    ) as {{ alias }}
{%- endmacro %}
{#-
  Spark: each element's JSON text as the document spells it (from_json to array<string> keeps a number's or an
  object's text, 1.0 stays 1.0), and a string element re-quoted from its variant (array<string> unquotes it).
-#}
{% macro spark__json_each(expr, path, alias) -%}
    {%- set doc = spark_json_readable(expr) -%}
    {%- set element = "element_at(from_json(get_json_object(" ~ doc ~ ", '" ~ path ~ "'), 'array<variant>'), je_x.je_pos + 1)" -%}
    cross join lateral (
        select
            case
                when je_x.je_text is null then 'null'
                when {{ spark_json_is_marked(element) }} then {{ spark_json_unmarked('je_x.je_text') }}
                when schema_of_variant({{ element }}) = 'STRING' then to_json({{ element }})
                else {{ spark_json_fragment_unmarked('je_x.je_text') }}
            end as value,
            cast(je_x.je_pos as int) as position
        from (
            select posexplode(from_json(get_json_object({{ doc }}, '{{ path }}'), 'array<string>')) as (je_pos, je_text)
        ) as je_x
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
{#- DuckDB: the object's keys and values as two lists of one order, unnested side by side (see default__json_each). -#}
{% macro default__json_each_entry(expr, path, alias) -%}
    {%- set is_object -%} json_type({{ expr }}, '{{ path }}') = 'OBJECT' {%- endset %}
    {%- set keys -%} case when {{ is_object }} then json_keys({{ expr }}, '{{ path }}') end {%- endset %}
    {%- set members -%} case when {{ is_object }} then json_extract({{ expr }}, '{{ path }}.*') end {%- endset %}
    cross join lateral (
        select
            unnest({{ keys }})::varchar as key,
            unnest({{ members }})::varchar as value,
            (generate_subscripts({{ keys }}, 1) - 1)::integer as position
    ) as {{ alias }}
{%- endmacro %}
{#-
  Spark: a map keeps the document's key order (a variant object sorts its keys); map<string,string> keeps a
  number's or an object's text as written, and a string value is re-quoted from its variant.
-#}
{% macro spark__json_each_entry(expr, path, alias) -%}
    {%- set doc = spark_json_readable(expr) -%}
    {%- set entry = "from_json(get_json_object(" ~ doc ~ ", '" ~ path ~ "'), 'map<string,variant>')[je_x.je_key]" -%}
    cross join lateral (
        select
            je_x.je_key as key,
            case
                when je_x.je_text is null then 'null'
                when {{ spark_json_is_marked(entry) }} then {{ spark_json_unmarked('je_x.je_text') }}
                when schema_of_variant({{ entry }}) = 'STRING' then to_json({{ entry }})
                else {{ spark_json_fragment_unmarked('je_x.je_text') }}
            end as value,
            cast(je_x.je_pos as int) as position
        from (
            select posexplode(from_json(get_json_object({{ doc }}, '{{ path }}'), 'map<string,string>')) as (je_pos, je_key, je_text)
        ) as je_x
        where schema_of_variant(try_variant_get(try_parse_json({{ doc }}), '{{ path }}')) like 'OBJECT%'
    ) as {{ alias }}
{%- endmacro %}

{#- AGGREGATE: concatenate `expr` with `sep`, ordered by `order_by` (NULLs skipped). -#}
{% macro ordered_string_agg(expr, sep, order_by) -%}
    {{ return(adapter.dispatch('ordered_string_agg', 'evalhouse')(expr, sep, order_by)) }}
{%- endmacro %}
{% macro default__ordered_string_agg(expr, sep, order_by) -%}
    string_agg({{ expr }}, '{{ sep }}' order by {{ order_by }})
{%- endmacro %}
{% macro spark__ordered_string_agg(expr, sep, order_by) -%}
    listagg({{ expr }}, '{{ sep }}') within group (order by {{ order_by }})
{%- endmacro %}
