{#-
  inspect_value_to_float(json_type, text): inspect_ai's value_to_float of a score value, from its JSON type
  (json_type(...) of the value) and its text (json_text(...)): letters C 1, P 0.5, I and N 0; true 1, false 0;
  "yes" / "true" 1, "no" / "false" 0; numbers as they are; NULL for anything else (an object, other text).
  A column-level helper of the inspect staging models.
-#}
{% macro inspect_value_to_float(json_type, text) -%}
    case
        when {{ json_type }} = 'VARCHAR' then
            case
                when {{ text }} = 'C' then 1.0
                when {{ text }} = 'P' then 0.5
                when {{ text }} in ('I', 'N') then 0.0
                when lower({{ text }}) in ('yes', 'true') then 1.0
                when lower({{ text }}) in ('no', 'false') then 0.0
                else try_cast({{ text }} as double)
            end
        when {{ json_type }} = 'BOOLEAN' then case when {{ text }} = 'true' then 1.0 else 0.0 end
        when {{ json_type }} in ('DOUBLE', 'BIGINT', 'UBIGINT') then try_cast({{ text }} as double)
    end
{%- endmacro %}
