{#-
  Generic test (rule R26, provenance): every row of a fact model says where it came from.
  Fails on rows where any of `columns` is NULL (default: source_file, source_line, load_id).
  Usage in a models yml:
      data_tests:
        - has_provenance:
            name: r26_<model>_has_provenance
            arguments: {columns: ['source_file', 'source_line', 'load_id']}   # optional
-#}
{% test has_provenance(model, columns=['source_file', 'source_line', 'load_id']) %}
select *
from {{ model }}
where
    {%- for col in columns %}
    {{ col }} is null{% if not loop.last %} or{% endif %}
    {%- endfor %}
{% endtest %}
