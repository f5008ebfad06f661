{#-
  Incremental models over a raw landing table (raw.big_lines / matrix_lines / layered_lines, or a
  raw.ce_*_docs table): the unit of work is one (load_id, source_file) pair. The loader lands an
  append as a NEW load_id for that file and replaces a rewritten file as a unit (its old rows are
  deleted from raw, all its lines land again under the new load_id), so a pair is either fully in
  raw or gone. An incremental model therefore

    1. deletes its rows whose (load_id, source_file) pair no longer exists in raw
       (pre_hook: {{ delete_unloaded_pairs(source(...)) }}; replaced/shrunk files leave no stale rows);
    2. processes only raw rows whose pair is not yet in {{ this }} ({{ only_new_pairs('alias') }}
       in the WHERE position of the raw scan; nothing else in the model changes);

  and `dbt build --full-refresh` (or `evalhouse build -- --full-refresh`) rebuilds it from scratch.
  Result: the same rows as a full rebuild, with the JSON of every line parsed once, ever.

  Usage (a staging model over raw.big_lines):

    {{ pairs_incremental_config("source('big', 'big_lines')") }}
    ... from {{ source('big', 'big_lines') }} as src {{ only_new_pairs('src') }}

  pairs_incremental_config sets materialized='incremental', the engine's strategy, on_schema_change='fail' and
  the pre_hook above.

  Requirements: the model keeps load_id and source_file columns copied unchanged from raw, and it
  must not read seeds or anything else that can change without a new load (such models stay full
  tables/views). A pair whose lines produced no row of the model (e.g. no list elements to
  unnest) is re-read on the next incremental run and again produces no row: still exact.
  Engine-neutral SQL (anti-joins on two columns); only the strategy is dispatched
  (pairs_incremental_strategy below: Spark's Parquet tables cannot DELETE, so there the model is recomputed).
-#}

{#-
  pairs_incremental_config(upstream_call): the config of every model above, in one place. `upstream_call` is the
  dbt call (as text) of the raw table or model whose pairs the model follows, e.g. "source('big', 'big_lines')"; the
  model's own scan names the same relation, so its DAG edge stays in the model file.
-#}
{% macro pairs_incremental_config(upstream_call) -%}
    {{ config(
        materialized='incremental',
        incremental_strategy=pairs_incremental_strategy(),
        on_schema_change='fail',
        pre_hook='{{ delete_unloaded_pairs(' ~ upstream_call ~ ') }}'
    ) }}
{%- endmacro %}

{% macro only_new_pairs(alias, keyword='where') -%}
    {%- if is_incremental() and this is not none and pairs_incremental_strategy() == 'append' %}
    {{ keyword }} not exists (
        select 1
        from (select distinct done.load_id, done.source_file from {{ this }} as done) as done_pairs
        where
            done_pairs.load_id = {{ alias }}.load_id
            and done_pairs.source_file = {{ alias }}.source_file
    )
    {%- endif %}
{%- endmacro %}

{% macro delete_unloaded_pairs(raw_relation) -%}
    {%- if is_incremental() and pairs_incremental_strategy() == 'append' -%}
    delete from {{ this }} as stale
    where not exists (
        select 1
        from (select distinct src.load_id, src.source_file from {{ raw_relation }} as src) as loaded_pairs
        where
            loaded_pairs.load_id = stale.load_id
            and loaded_pairs.source_file = stale.source_file
    )
    {%- endif -%}
{%- endmacro %}

{#-
  Engines whose lake tables cannot DELETE (Spark over Parquet): an incremental model recomputes all
  its rows and overwrites the table (insert_overwrite without partitions), so `only_new_pairs` and
  `delete_unloaded_pairs` do nothing there. Same rows as DuckDB's append of the new pairs; only the
  work differs. Models say `incremental_strategy=pairs_incremental_strategy()`.
-#}
{% macro pairs_incremental_strategy() -%}
    {{ return(adapter.dispatch('pairs_incremental_strategy', 'evalhouse')()) }}
{%- endmacro %}
{% macro default__pairs_incremental_strategy() -%}{{ return('append') }}{%- endmacro %}
{% macro spark__pairs_incremental_strategy() -%}{{ return('insert_overwrite') }}{%- endmacro %}
