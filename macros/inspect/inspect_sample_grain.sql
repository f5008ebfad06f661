{#-
  inspect_sample_grain(): the grain of an inspect_ai sample, ['source_file', 'sample_id', 'epoch'] (a log file's
  sample in one epoch). Every inspect model at sample grain selects, groups and joins on it:
  {{ qualified('m', inspect_sample_grain()) }}, {{ same_keys('a', 'b', inspect_sample_grain()) }}.
-#}
{% macro inspect_sample_grain() -%}
    {{ return(['source_file', 'sample_id', 'epoch']) }}
{%- endmacro %}
