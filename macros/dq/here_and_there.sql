{#-
  here_and_there(what, here, there, missing): the part of a finding's detail that says how two records differ in
  one field: '; <what> <here> here, <there> there' (a NULL side as `missing`), or NULL when the two agree (NULL on
  both sides agrees). A column-level helper of findings that compare two logs (R35).
-#}
{% macro here_and_there(what, here, there, missing) -%}
    case
        when not ({{ here }} is not distinct from {{ there }})
            then '; {{ what }} ' || coalesce({{ here }}, '{{ missing }}') || ' here, '
                || coalesce({{ there }}, '{{ missing }}') || ' there'
    end
{%- endmacro %}
