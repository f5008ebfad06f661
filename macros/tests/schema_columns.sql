{#-
  The columns of the relations in `schema` at execution time, for the catalog tests (R01, R02, R25):
  a list of (table_name, column_name, data_type) rows, lower-case names, upper-case DuckDB-style type
  names, in column order; `tables_only` leaves out views (the old-name views of models/marts/aliases).
  DuckDB reads information_schema; Spark (no information_schema) asks the catalog relation by relation.
-#}
{% macro schema_columns(schema='marts', tables_only=false) %}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {{ return(adapter.dispatch('schema_columns', 'evalhouse')(schema, tables_only)) }}
{% endmacro %}

{% macro default__schema_columns(schema, tables_only) %}
    {%- set catalog_sql -%}
        select
            lower(c.table_name) as table_name,
            lower(c.column_name) as column_name,
            upper(c.data_type) as data_type
        from information_schema.columns as c
        inner join information_schema.tables as t
            on c.table_catalog = t.table_catalog and c.table_schema = t.table_schema and c.table_name = t.table_name
        where
            lower(c.table_schema) = '{{ schema }}'
            and c.table_catalog = '{{ target.database }}'
            {%- if tables_only %}
            and t.table_type = 'BASE TABLE'
            {%- endif %}
        order by c.table_name, c.ordinal_position
    {%- endset -%}
    {{ return(run_query(catalog_sql).rows | map('list') | list) }}
{% endmacro %}

{% macro spark__schema_columns(schema, tables_only) %}
    {%- set spark_types = {'STRING': 'VARCHAR', 'INT': 'INTEGER', 'TIMESTAMP': 'TIMESTAMP WITH TIME ZONE'} -%}
    {%- set views = run_query('show views in ' ~ schema).columns[1].values() | map('lower') | list -%}
    {%- set out = [] -%}
    {%- set listed = run_query('show tables in ' ~ schema) -%}
    {#- show tables also lists the session's temporary views (a build's __dbt_tmp), which are not the schema's -#}
    {%- set names = [] -%}
    {%- for r in listed.rows if not r[2] -%}{%- do names.append(r[1] | lower) -%}{%- endfor -%}
    {%- for t in names | sort -%}
        {%- if not (tables_only and t in views) -%}
            {%- for r in run_query('describe table ' ~ schema ~ '.' ~ t).rows -%}
                {%- if r[0] and not r[0].startswith('#') -%}
                    {%- set ty = r[1] | upper -%}
                    {%- do out.append([t, r[0] | lower, spark_types.get(ty, ty)]) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(out) }}
{% endmacro %}

{#- The same rows as a relation (table_name, column_name) for a FROM clause (one VALUES list: a union of
    hundreds of selects is too deep for Spark's parser). -#}
{% macro schema_columns_relation(schema='marts') -%}
    {%- set rows = schema_columns(schema) -%}
    {%- if rows %}
    (
        select * from (values
        {%- for r in rows %}
            ('{{ r[0] }}', '{{ r[1] }}'){{ ',' if not loop.last }}
        {%- endfor %}
        ) as catalog_rows (table_name, column_name)
    )
    {%- else %}
    (
        select cast(null as {{ dbt.type_string() }}) as table_name, cast(null as {{ dbt.type_string() }}) as column_name
        where 1 = 0
    )
    {%- endif %}
{%- endmacro %}
