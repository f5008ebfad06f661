{#-
  Generic test: the model has no rows. Used on every int_dq__* model (one row per finding about
  what the logs claim) with `config: {severity: warn}`: the test warns with the number of
  findings, and the rows themselves land in marts.data_quality_findings.
-#}
{% test is_empty(model) %}
select *
from {{ model }}
{% endtest %}
