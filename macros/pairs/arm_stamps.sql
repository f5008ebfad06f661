{#-
  The stamp range of the two arms of a paired comparison, carried from the arms through the pairs to
  the comparison: first_stamp / last_stamp of arm a and arm b (suffixes _a and _b, or as given).
-#}

{#- In the pairs CTE: each arm's own range, from the arms joined as `a` and `b`. -#}
{% macro arm_stamps(a, b, suffix_a='_a', suffix_b='_b') -%}
    {{ a }}.first_stamp as first_stamp{{ suffix_a }},
    {{ a }}.last_stamp as last_stamp{{ suffix_a }},
    {{ b }}.first_stamp as first_stamp{{ suffix_b }},
    {{ b }}.last_stamp as last_stamp{{ suffix_b }}
{%- endmacro %}

{#- In the grouping CTE: each arm's range over the pairs of `alias` (none: the columns unqualified). -#}
{% macro arm_stamp_ranges(alias, suffix_a='_a', suffix_b='_b') -%}
    {%- set q = alias ~ '.' if alias else '' -%}
    min({{ q }}first_stamp{{ suffix_a }}) as first_stamp{{ suffix_a }},
    max({{ q }}last_stamp{{ suffix_a }}) as last_stamp{{ suffix_a }},
    min({{ q }}first_stamp{{ suffix_b }}) as first_stamp{{ suffix_b }},
    max({{ q }}last_stamp{{ suffix_b }}) as last_stamp{{ suffix_b }}
{%- endmacro %}

{#- In the final SELECT: each arm's range and the comparison's (both arms), as timestamps with time zone. -#}
{% macro arm_stamp_columns(alias, suffix_a='_a', suffix_b='_b') -%}
    cast({{ alias }}.first_stamp{{ suffix_a }} as {{ type_timestamptz() }}) as first_stamp{{ suffix_a }},
    cast({{ alias }}.last_stamp{{ suffix_a }} as {{ type_timestamptz() }}) as last_stamp{{ suffix_a }},
    cast({{ alias }}.first_stamp{{ suffix_b }} as {{ type_timestamptz() }}) as first_stamp{{ suffix_b }},
    cast({{ alias }}.last_stamp{{ suffix_b }} as {{ type_timestamptz() }}) as last_stamp{{ suffix_b }},
    cast(least({{ alias }}.first_stamp{{ suffix_a }}, {{ alias }}.first_stamp{{ suffix_b }}) as {{ type_timestamptz() }})
        as first_stamp,
    cast(greatest({{ alias }}.last_stamp{{ suffix_a }}, {{ alias }}.last_stamp{{ suffix_b }}) as {{ type_timestamptz() }})
        as last_stamp
{%- endmacro %}
