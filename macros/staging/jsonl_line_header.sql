{#-
  jsonl_line_header(alias): the provenance + shape columns every brownfield JSONL staging model starts
  with (one raw.*_lines row `alias`): load and line identity, hashes, the loader's repair note and
  is_repaired, and record_is_object (the line holds a JSON object).
-#}
{% macro jsonl_line_header(alias) -%}
    {{ alias }}.load_id,
    {{ alias }}.loaded_at,
    {{ alias }}.source_file,
    {{ alias }}.source_line,
    {{ alias }}.record_sha256,
    {{ alias }}.file_sha256,
    {{ alias }}.repaired,
    {{ alias }}.repaired is not null as is_repaired,
    coalesce({{ json_type(alias ~ '.record', '$') }} = 'OBJECT', false) as record_is_object
{%- endmacro %}
