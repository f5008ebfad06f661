{#-
  foreign_record_detail(fields): the finding text for a line of a JSONL family that is a JSON object with none of
  the family's fields (`fields`, as the log spells them): not a record of the family, left out of every mart, and
  what to do about it. A column-level helper of the int_dq__<family>_foreign_records models, so the advice (which
  folder holds which family, or --family) is written once.
-#}
{% macro foreign_record_detail(fields) -%}
    'a JSON object with none of the fields of this family ({{ fields | join(", ") }}): '
    || 'not a record of it, left out of every mart; if it belongs to another family, move the file (logs_big/ runs, logs/ matrix turns, '
    || 'logs_layered/ pipeline measurements) or load it with --family'
{%- endmacro %}
