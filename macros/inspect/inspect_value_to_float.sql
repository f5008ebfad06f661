{#-
  inspect_value_to_float(json_type, text): inspect_ai's value_to_float of a score value, from its JSON type
  (json_type(...) of the value) and its text (json_text(...)): letters C 1, P 0.5, I and N 0; true 1, false 0;
  "yes" / "true" 1, "no" / "false" 0 (any case); a number as it is (NaN stays NaN: unscored, inspect_scored_float);
  text that reads as a finite number (" 0.5", "1e3") as that number; and 0 for any other value, as inspect_ai's
  metrics take it (with a warning in its log): other text ("maybe", "inf", "nan"), a list or a dict (a dict-valued
  scorer that declares a metric per key is read per key, stg_inspect__sample_score_keys). NULL only for a JSON null.
  Known limits: Python's float() also reads digits beyond ASCII ("٣"), which the engines do not (0 here).
  A column-level helper of the inspect staging models.
-#}
{% macro inspect_value_to_float(json_type, text) -%}
    {%- set x = 'try_cast(' ~ text ~ ' as double)' -%}
    case
        when {{ json_type }} = 'VARCHAR' then
            case
                when {{ text }} = 'C' then 1.0
                when {{ text }} = 'P' then 0.5
                when {{ text }} in ('I', 'N') then 0.0
                when lower({{ text }}) in ('yes', 'true') then 1.0
                when lower({{ text }}) in ('no', 'false') then 0.0
                when {{ is_finite(x) }} then {{ x }}
                else 0.0
            end
        when {{ json_type }} = 'BOOLEAN' then case when {{ text }} = 'true' then 1.0 else 0.0 end
        when {{ json_type }} in ('DOUBLE', 'BIGINT', 'UBIGINT') then try_cast({{ text }} as double)
        when {{ json_type }} in ('OBJECT', 'ARRAY') then 0.0
    end
{%- endmacro %}
