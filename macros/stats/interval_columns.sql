{#-
  The interval column block of one clustered mean: <prefix>_se, <prefix>_ci_low, <prefix>_ci_high,
  each NULL when `mean` is NULL (no measured rows), the interval from mean_ci_low/mean_ci_high.
  Bounds: `lower`/`upper` as for mean_ci_low (none = unbounded); widen_to_mean=true clips to
  [least(0, mean), greatest(1, mean)] (a score normally in [0, 1] that the logs may exceed).
-#}
{% macro mean_interval_columns(mean, se, prefix, lower=0, upper=1, widen_to_mean=false) -%}
    {%- if widen_to_mean -%}
        {%- set lower = 'least(0, ' ~ mean ~ ')' -%}
        {%- set upper = 'greatest(1, ' ~ mean ~ ')' -%}
    {%- endif -%}
    case when {{ mean }} is not null then {{ se }} end as {{ prefix }}_se,
    case
        when {{ mean }} is not null then {{ mean_ci_low(mean, se, lower=lower, upper=upper) }}
    end as {{ prefix }}_ci_low,
    case
        when {{ mean }} is not null then {{ mean_ci_high(mean, se, lower=lower, upper=upper) }}
    end as {{ prefix }}_ci_high
{%- endmacro %}

{#-
  The Wilson interval columns of one rate k/n: <prefix>_ci_low, <prefix>_ci_high, each NULL when
  `rate` is NULL (the rate is not estimable, e.g. nothing measured).
-#}
{% macro rate_interval_columns(rate, k, n, prefix) -%}
    case
        when {{ rate }} is not null then {{ wilson_low(k, n) }}
    end as {{ prefix }}_ci_low,
    case
        when {{ rate }} is not null then {{ wilson_high(k, n) }}
    end as {{ prefix }}_ci_high
{%- endmacro %}
