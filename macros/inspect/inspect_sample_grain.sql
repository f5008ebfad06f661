{#-
  inspect_sample_grain(): the grain of an inspect_ai sample, ['source_file', 'sample_id', 'epoch'] (a log file's
  sample in one epoch). Every inspect model at sample grain selects, groups and joins on it:
  {{ qualified('m', inspect_sample_grain()) }}, {{ same_keys('a', 'b', inspect_sample_grain()) }}.
-#}
{% macro inspect_sample_grain() -%}
    {{ return(['source_file', 'sample_id', 'epoch']) }}
{%- endmacro %}

{#-
  inspect_reduced_sample_keys(): what names one sample's entry of reductions.json, ['source_file',
  'reduction_position', 'scorer', 'reducer', 'sample_position', 'sample_id'] (its grain is the file and the two
  positions; the scorer, reducer and sample id say what they are). base_inspect__reduced_samples writes them, and the
  staging models that type its rows carry them: {{ qualified('r', inspect_reduced_sample_keys()) }}.
-#}
{% macro inspect_reduced_sample_keys() -%}
    {{ return(['source_file', 'reduction_position', 'scorer', 'reducer', 'sample_position', 'sample_id']) }}
{%- endmacro %}
