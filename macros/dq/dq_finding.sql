{#-
  dq_finding(rule_id, family, alias=none, line=true): the first four columns of an int_dq__* finding, which
  data_quality_findings unions: rule_id and source_family (literals), source_file and source_line of
  `alias` (line=false: a finding about a whole document, source_line NULL). The model adds `detail`.
  A finding whose rule or family comes from its rows (the uncastable-value and quarantine findings,
  R27's audit) names those columns itself.
-#}
{% macro dq_finding(rule_id, family, alias=none, line=true) -%}
    {%- set q = alias ~ '.' if alias else '' -%}
    '{{ rule_id }}' as rule_id,
    '{{ family }}' as source_family,
    {{ q }}source_file,
    {% if line %}{{ q }}source_line{% else %}cast(null as bigint) as source_line{% endif %}
{%- endmacro %}
