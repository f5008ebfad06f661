{#-
  The raw layer on engines that read the Parquet lake (Spark): on-run-start registers each `raw`
  source table as a Parquet table over `<lake>/raw/<table>/` (written by `evalhouse build --target
  spark --lake DIR`, evalhouse/lake.py) and refreshes its file listing. On DuckDB the raw tables
  live in the database file, so this is a no-op.
-#}
{% macro lake_sources() -%}
    {{ return(adapter.dispatch('lake_sources', 'evalhouse')()) }}
{%- endmacro %}

{% macro default__lake_sources() -%}
    select 1 as lake_sources_not_needed
{%- endmacro %}

{% macro spark__lake_sources() -%}
    {%- if execute -%}
    {%- set lake = env_var('EVALHOUSE_LAKE', 'lake') -%}
    {%- set tables = [] -%}
    {%- for node in graph.sources.values() if node.schema == 'raw' and node.identifier not in tables -%}
        {%- do tables.append(node.identifier) -%}
    {%- endfor -%}
    {%- do run_query('create database if not exists raw') -%}
    {%- for t in tables | sort -%}
        {%- do run_query('create table if not exists raw.' ~ t ~ " using parquet location '" ~ lake ~ '/raw/' ~ t ~ "'") -%}
        {%- do run_query('refresh table raw.' ~ t) -%}
    {%- endfor -%}
    {%- endif -%}
    select 1 as lake_sources_registered
{%- endmacro %}
