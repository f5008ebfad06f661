{#-
  inspect_cluster_id(json_value): the cluster a sample-metadata value names, as inspect_ai's clustered stderr
  (stderr(cluster=key)) forms them: it keys a dict by the Python value, so values Python calls equal are one cluster
  (1, 1.0 and true; 0, -0.0 and false; 2 and 2.0), while a string is never equal to a number ("2" is not 2).
  `json_value` is the value's JSON text as landed. The key is:
  - a string, list or dict: its JSON text (a list or dict is not a valid cluster id for inspect_ai, which then stores
    no clustered stderr; evalhouse still clusters by it);
  - true / false: '1' / '0';
  - an integer: its digits ('-0' as '0');
  - a float with an integral value below 2^63 in magnitude: the integer's digits (2.0 is 2);
  - any other float: Python's spelling of it (0.5, 1e+20 beyond 2^63, inf). An integral float of 2^63 or more is
    not merged with the integer it equals (a documented limit: such an id is taken as a float).
  A column-level helper of int_inspect__sample_values.
-#}
{% macro inspect_cluster_id(json_value) -%}
    {%- set x = 'cast(' ~ json_value ~ ' as double)' -%}
    case
        when {{ json_value }} = 'true' then '1'
        when {{ json_value }} = 'false' then '0'
        when substr({{ json_value }}, 1, 1) in ('"', '[', '{') then {{ json_value }}
        when {{ json_value }} = '-0' then '0'
        when not ({{ json_value }} like '%.%' or lower({{ json_value }}) like '%e%' or {{ json_value }} in ('NaN', 'Infinity', '-Infinity'))
            then {{ json_value }}
        when abs({{ x }}) < 9.2e18 and {{ x }} = floor({{ x }})
            then cast(cast({{ x }} as bigint) as {{ dbt.type_string() }})
        else {{ python_float_str(x) }}
    end
{%- endmacro %}
