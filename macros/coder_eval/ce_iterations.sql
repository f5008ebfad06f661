{#-
  One row per TurnRecord of every task.json in `relation`, from `iterations` or the legacy key
  `turns` (the only read alias of EvaluationResult). Exposes the replicate identity,
  iteration_index (0-based list position: a crashed partial and its retry share `iteration`),
  iteration_json and iterations_key.
-#}
{% macro ce_iterations_select(relation) -%}
select
    d.run_dir,
    d.run_id,
    d.variant_id,
    coalesce({{ json_text('d.document', '$.task_id') }}, d.task_id) as task_id,
    d.replicate_index,
    d.source_file,
    d.load_id,
    d.document_sha256,
    it.position as iteration_index,
    it.value as iteration_json,
    'iterations' as iterations_key
from {{ relation }} as d
{{ json_each('d.document', '$.iterations', 'it') }}
union all
select
    d.run_dir,
    d.run_id,
    d.variant_id,
    coalesce({{ json_text('d.document', '$.task_id') }}, d.task_id) as task_id,
    d.replicate_index,
    d.source_file,
    d.load_id,
    d.document_sha256,
    it.position as iteration_index,
    it.value as iteration_json,
    'turns' as iterations_key
from {{ relation }} as d
{{ json_each('d.document', '$.turns', 'it') }}
where not {{ json_has('d.document', '$.iterations') }}
{%- endmacro %}

{#- The replicate identity + provenance column list carried by every per-replicate child model. -#}
{% macro ce_replicate_identity(alias) -%}
    {{ alias }}.run_dir,
    {{ alias }}.run_id,
    {{ alias }}.variant_id,
    {{ alias }}.task_id,
    {{ alias }}.replicate_index
{%- endmacro %}
{% macro ce_provenance(alias) -%}
    {{ alias }}.source_file,
    {{ alias }}.load_id,
    {{ alias }}.document_sha256
{%- endmacro %}
