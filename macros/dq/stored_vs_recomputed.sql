{#-
  stored_vs_recomputed(name, stored, recomputed, when=none, number=false): the finding text
  '<name> stored <s> vs recomputed <r>' when the value a log STORED is distinct from the value evalhouse
  recomputed, NULL otherwise; `when` narrows it (e.g. only when the log stored the key). With number=true the
  values print as number_text (doubles), else as text; NULL prints 'null'. A column-level helper of the
  int_dq__* models that check stored counts and rates.
-#}
{% macro stored_vs_recomputed(name, stored, recomputed, when=none, number=false) -%}
    case when {% if when %}{{ when }} and {% endif %}{{ stored }} is distinct from {{ recomputed }}
            then '{{ name }} stored ' || coalesce({{ stored_value_text(stored, number) }}, 'null')
                || ' vs recomputed ' || coalesce({{ stored_value_text(recomputed, number) }}, 'null')
    end
{%- endmacro %}

{% macro stored_value_text(expr, number) -%}
    {%- if number %}{{ number_text(expr) }}{% else %}cast({{ expr }} as {{ dbt.type_string() }}){% endif -%}
{%- endmacro %}
