{#- Replicate identity + provenance of a base_coder_eval__task_docs row `alias`. -#}
{% macro coder_eval_task_doc_identity(alias) -%}
    {{ coder_eval_replicate_identity(alias) }},
    {{ coder_eval_provenance(alias) }}
{%- endmacro %}

{#-
  One row per element of the task.json lists named in `items` (tuples (label, json_key[, where_sql])) of
  `relation` (base_coder_eval__task_docs), unioned: the replicate identity + provenance, `label` as <label_col>,
  the 0-based list position as <index_col> and the element JSON as <value_col> (label after index/value when
  label_last).
-#}
{% macro coder_eval_task_doc_elements_select(relation, items, label_col, index_col, value_col, label_last=false) -%}
    {%- for item in items %}
        {%- if not loop.first %}
union all
        {%- endif %}
select
    {{ coder_eval_task_doc_identity('d') }},
    {%- if not label_last %}
    '{{ item[0] }}' as {{ label_col }},
    {%- endif %}
    el.position as {{ index_col }},
    el.value as {{ value_col }}
    {%- if label_last %},
    '{{ item[0] }}' as {{ label_col }}
    {%- endif %}
from {{ relation }} as d
{{ json_each('d.document', '$.' ~ item[1], 'el') }}
        {%- if item | length > 2 %}
where {{ item[2] }}
        {%- endif %}
    {%- endfor %}
{%- endmacro %}

{#- The replicate identity + provenance column list carried by every per-replicate child model. -#}
{% macro coder_eval_replicate_identity(alias) -%}
    {{ alias }}.run_dir,
    {{ alias }}.run_id,
    {{ alias }}.variant_id,
    {{ alias }}.task_id,
    {{ alias }}.replicate_index
{%- endmacro %}
{% macro coder_eval_provenance(alias) -%}
    {{ alias }}.source_file,
    {{ alias }}.load_id,
    {{ alias }}.document_sha256
{%- endmacro %}

{#- Join predicate: rows `a` and `b` belong to the same replicate (replicate_index may be NULL on both). -#}
{% macro coder_eval_same_replicate(a, b) -%}
    {{ a }}.run_dir = {{ b }}.run_dir
    and {{ a }}.variant_id = {{ b }}.variant_id
    and {{ a }}.task_id = {{ b }}.task_id
    and {{ a }}.replicate_index is not distinct from {{ b }}.replicate_index
{%- endmacro %}
