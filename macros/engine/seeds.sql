{#-
  Spark seeds: dbt-spark's session cursor splices seed values into the SQL unescaped, so a value with a
  quote (the rate card's notes) breaks the insert, and it turns decimals into floats. Here each value
  is a SQL literal written from its CSV text: quotes and backslashes escaped, numbers as written.
-#}
{% macro spark__load_csv_rows(model, agate_table) %}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
        {%- set sql -%}
            insert into {{ this.render() }} values
            {% for row in chunk -%}
                ({%- for col_name in agate_table.column_names -%}
                    {%- set type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
                    {%- set value = row[loop.index0] -%}
                    {%- if value is none -%}
                        cast(null as {{ type }})
                    {%- else -%}
                        cast('{{ (value | string) | replace("\\", "\\\\") | replace("'", "\\'") }}' as {{ type }})
                    {%- endif -%}
                    {{- ',' if not loop.last -}}
                {%- endfor -%}){{ ',' if not loop.last }}
            {% endfor %}
        {%- endset -%}
        {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
        {%- if loop.index0 == 0 -%}{%- do statements.append(sql) -%}{%- endif -%}
    {%- endfor -%}
    {{ return(statements[0] if statements else '') }}
{% endmacro %}
