{#-
  Model contracts name DuckDB types (varchar, timestamptz, hugeint, json): on Spark the contract check
  reads them through engine_type(), so the same yml holds on both engines. dbt's own
  default__get_empty_schema_sql with the type translated; dispatched from the root project first.
-#}
{% macro spark__get_empty_schema_sql(columns) -%}
    {%- set translated = {} -%}
    {%- for i in columns -%}
        {%- set col = columns[i] -%}
        {%- if col['data_type'] is defined -%}
            {%- set c = {} -%}
            {%- do c.update(col) -%}
            {%- do c.update({'data_type': evalhouse.engine_type(col['data_type'] | trim)}) -%}
            {%- do translated.update({i: c}) -%}
        {%- else -%}
            {%- do translated.update({i: col}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ dbt.default__get_empty_schema_sql(translated) }}
{%- endmacro %}
