{#-
  Typed projection of JSON document keys for the coder-eval report staging models.
  `fields` is a list of tuples (column_name, json_path, sql_type[, default_sql]):
    - sql_type 'json' keeps the JSON fragment (object / array) as text;
    - a 4th element is the value used when the KEY IS ABSENT (an older writer; pydantic applies
      the model default). A present key with JSON null stays NULL.
  Every value goes through try_cast: a value that does not cast becomes NULL and its column
  name is listed by ce_invalid_fields (never dropped).
-#}
{% macro ce_typed_columns(doc, fields) -%}
    {%- for f in fields %}
        {%- if f[2] == 'json' %}
    {{ evalhouse.json_fragment(doc, f[1]) }}::varchar as {{ f[0] }}
        {%- elif f | length > 3 %}
    case
        when {{ evalhouse.json_has(doc, f[1]) }} then try_cast({{ evalhouse.json_text(doc, f[1]) }} as {{ f[2] }})
        else cast({{ f[3] }} as {{ f[2] }})
    end as {{ f[0] }}
        {%- else %}
    try_cast({{ evalhouse.json_text(doc, f[1]) }} as {{ f[2] }}) as {{ f[0] }}
        {%- endif %}{{ ',' if not loop.last }}
    {%- endfor %}
{%- endmacro %}

{#- Comma-separated names of the fields whose present, non-null value did not cast (NULL when none). -#}
{% macro ce_invalid_fields(doc, fields) -%}
    nullif(concat_ws(', '
    {%- for f in fields if f[2] not in ('json', 'varchar') %},
        case
            when {{ evalhouse.json_text(doc, f[1]) }} is not null
                and try_cast({{ evalhouse.json_text(doc, f[1]) }} as {{ f[2] }}) is null then '{{ f[0] }}'
        end
    {%- endfor %}), '')
{%- endmacro %}
