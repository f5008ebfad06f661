{#-
  inspect_same_instrument(a, b): the predicate "rows `a` and `b` (a log's values of one score, scorer and reducer,
  with the log's task_version and epochs and the scorer's scorer_options_json and scorer_models) were measured with
  the same instrument" (R35): the same task version, the scorer with the same arguments and the same models called
  while scoring (its grader), and the same number of epochs, except for a reducer whose estimand does not depend on
  it: the mean of the epochs' values, and pass_at_k (inspect_ai's unbiased estimator of pass@k for any number of
  epochs from k up). NULL on both sides (a log that does not state it) agrees.
-#}
{% macro inspect_same_instrument(a, b) -%}
    {{ same_keys(a, b, [], null_safe=['task_version', 'scorer_options_json', 'scorer_models']) }}
    and (
        {{ a }}.epochs = {{ b }}.epochs
        or {{ a }}.reducer = 'mean'
        or substr({{ a }}.reducer, 1, 8) = 'pass_at_'
    )
{%- endmacro %}
