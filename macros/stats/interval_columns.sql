{#-
  The interval column block of one clustered mean: <prefix>_se, <prefix>_ci_low, <prefix>_ci_high,
  each NULL when `mean` is NULL (no measured rows). The interval is t_mean_bound (macros/stats/
  inference.sql): mean -/+ t(C-1, 0.975) * SE with C = n_clusters, clipped to [lower, upper]
  (none = unbounded), Wilson at n_obs when SE = 0 on a bounded mean, NULL when C < 2.
  widen_to_mean=true clips to [least(0, mean), greatest(1, mean)] (a score normally in [0, 1]
  that the logs may exceed).
-#}
{% macro mean_interval_columns(mean, se, prefix, n_clusters, n_obs, lower=0, upper=1, widen_to_mean=false) -%}
    {%- if widen_to_mean -%}
        {%- set lower = 'least(0, ' ~ mean ~ ')' -%}
        {%- set upper = 'greatest(1, ' ~ mean ~ ')' -%}
    {%- endif -%}
    case when {{ mean }} is not null then {{ se }} end as {{ prefix }}_se,
    {{ t_mean_bound(mean, se, n_clusters, n_obs, 'low', lower=lower, upper=upper) }} as {{ prefix }}_ci_low,
    {{ t_mean_bound(mean, se, n_clusters, n_obs, 'high', lower=lower, upper=upper) }} as {{ prefix }}_ci_high
{%- endmacro %}

{#-
  The Wilson interval columns of one rate k/n of INDEPENDENT outcomes: <prefix>_ci_low,
  <prefix>_ci_high, each NULL when `rate` is NULL (the rate is not estimable, e.g. nothing measured).
-#}
{% macro rate_interval_columns(rate, k, n, prefix) -%}
    case
        when {{ rate }} is not null then {{ wilson_low(k, n) }}
    end as {{ prefix }}_ci_low,
    case
        when {{ rate }} is not null then {{ wilson_high(k, n) }}
    end as {{ prefix }}_ci_high
{%- endmacro %}

{#-
  The interval columns of one CLUSTERED rate k/n (several outcomes per cluster): <prefix>_se (the
  CR1 clustered SE), <prefix>_ci_low, <prefix>_ci_high: Wilson at the design-effect sample size
  with t(C-1, 0.975) (clustered_rate_bound). NULL when `rate` is NULL or C < 2.
-#}
{% macro clustered_rate_interval_columns(rate, k, n, se, n_clusters, prefix) -%}
    case when {{ rate }} is not null then {{ se }} end as {{ prefix }}_se,
    case
        when {{ rate }} is not null then {{ clustered_rate_bound(k, n, se, n_clusters, 'low') }}
    end as {{ prefix }}_ci_low,
    case
        when {{ rate }} is not null then {{ clustered_rate_bound(k, n, se, n_clusters, 'high') }}
    end as {{ prefix }}_ci_high
{%- endmacro %}
