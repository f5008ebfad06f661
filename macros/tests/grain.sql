{#-
  grain(columns): the model has at most one row per combination of `columns` (NULL counts as a value).
  Every model declares its grain this way (tests/test_dag_layering.py checks that each has one). A failure
  is a defect in evalhouse, not in the logs: the rows it returns name each repeated key and how often.
-#}
{% test grain(model, columns) %}
select
    {% for c in columns %}{{ c }}, {% endfor %}count(*) as n_rows
from {{ model }}
group by {% for c in columns %}{{ c }}{% if not loop.last %}, {% endif %}{% endfor %}
having count(*) > 1
{% endtest %}
