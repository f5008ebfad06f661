{#-
  The interval column block of one clustered mean: <prefix>_se, <prefix>_ci_low, <prefix>_ci_high,
  each NULL when `mean` is NULL (no measured rows). The interval is clustered_mean_bound (macros/
  stats/inference.sql): on the unit range with C >= 4 the angular t(C-1) interval, otherwise
  mean -/+ t(C-1, 0.975) * SE clipped to [lower, upper] (none = unbounded); Wilson at n_obs when
  SE = 0 on a bounded range; NULL when C < 2.
  widen_to_mean=true clips to [least(0, mean), greatest(1, mean)] (a score normally in [0, 1]
  that the logs may exceed). binary: a SQL boolean, true when every observation is 0 or 1 (then the
  mean is a clustered binary rate and takes the rate interval; clustered_mean_bound).
  bounded: a SQL boolean, true when the values are known to lie in [lower, upper] (a score whose range the log does
  not state, e.g. inspect_ai's mean() of any number: every value in [0, 1]). Where it is false the range is unknown:
  mean -/+ t(C-1, 0.975) * SE, unclipped, and NULL when SE = 0 (no bound to build an interval from).
-#}
{% macro mean_interval_columns(mean, se, prefix, n_clusters, n_obs, lower=0, upper=1, widen_to_mean=false, binary=none,
                               bounded=none) -%}
    case when {{ mean }} is not null then {{ se }} end as {{ prefix }}_se,
    {%- for side in ['low', 'high'] %}
    {%- if widen_to_mean %}
    (case
        when {{ mean }} >= 0 and {{ mean }} <= 1 then {{ clustered_mean_bound(mean, se, n_clusters, n_obs, side, binary=binary) }}
        else {{ clustered_mean_bound(mean, se, n_clusters, n_obs, side,
                                     lower='least(0, ' ~ mean ~ ')', upper='greatest(1, ' ~ mean ~ ')') }}
    end) as {{ prefix }}_ci_{{ side }}{{ ',' if side == 'low' }}
    {%- elif bounded is not none %}
    {{ bounded_or_unknown_range_bound(mean, se, n_clusters, n_obs, side, lower, upper, bounded, binary=binary) }} as {{ prefix }}_ci_{{ side }}{{ ',' if side == 'low' }}
    {%- else %}
    {{ clustered_mean_bound(mean, se, n_clusters, n_obs, side, lower=lower, upper=upper, binary=binary) }} as {{ prefix }}_ci_{{ side }}{{ ',' if side == 'low' }}
    {%- endif %}
    {%- endfor %}
{%- endmacro %}

{#-
  clustered_mean_bound on [lower, upper] where `bounded` (a SQL boolean) holds; otherwise on a range the data do not
  state: mean -/+ t(C-1, 0.975) * SE, unclipped, and NULL when SE = 0.
-#}
{% macro bounded_or_unknown_range_bound(mean, se, n_clusters, n_obs, side, lower, upper, bounded, binary=none) -%}
    (case
        when ({{ bounded }}) then {{ clustered_mean_bound(mean, se, n_clusters, n_obs, side, lower=lower, upper=upper, binary=binary) }}
        when ({{ se }}) > 1e-12 then {{ clustered_mean_bound(mean, se, n_clusters, n_obs, side, lower=none, upper=none) }}
    end)
{%- endmacro %}

{#-
  Why the interval of mean_interval_columns / paired_difference_columns is NULL, or NULL when it is not:
  ci_null_reason ('no observations', `too_few` below 2 clusters) and, where `bounded` (a SQL boolean) is false,
  'no spread, and the range is not stated' when SE = 0 (below 1e-12).
-#}
{% macro mean_ci_reason(mean, se, n_clusters, bounded=none, too_few='fewer than 2 clusters') -%}
    {%- if bounded is none %}
    {{ ci_null_reason(mean, n_clusters, too_few=too_few) }}
    {%- else %}
    coalesce({{ ci_null_reason(mean, n_clusters, too_few=too_few) }},
             case when not ({{ bounded }}) and ({{ se }}) <= 1e-12 then 'no spread, and the range is not stated' end)
    {%- endif %}
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

{#-
  The column block of one PAIRED difference in [lower, upper] ([-1, 1] by default; none = unbounded, for
  costs) over C clusters of pairs: <prefix>_ci_low,
  <prefix>_ci_high (t(C-1), clustered_mean_bound), <prefix>_ci_reason, and the t MDD as `mdd_name`
  (default <prefix>_mdd). bounded: as in mean_interval_columns (false: a range the data do not state; an
  interval NULL for want of spread there says so in <prefix>_ci_reason).
-#}
{% macro paired_difference_columns(prefix, mean, se, n_clusters, n_pairs, mdd_name=none, lower=-1, upper=1, bounded=none) -%}
    {%- for side in ['low', 'high'] %}
    {%- if bounded is not none %}
    {{ bounded_or_unknown_range_bound(mean, se, n_clusters, n_pairs, side, lower, upper, bounded) }} as {{ prefix }}_ci_{{ side }},
    {%- else %}
    {{ clustered_mean_bound(mean, se, n_clusters, n_pairs, side, lower=lower, upper=upper) }} as {{ prefix }}_ci_{{ side }},
    {%- endif %}
    {%- endfor %}
    cast({{ mean_ci_reason(mean, se, n_clusters, bounded) }} as {{ dbt.type_string() }}) as {{ prefix }}_ci_reason,
    {{ t_min_detectable_difference(se, n_clusters) }} as {{ mdd_name or prefix ~ '_mdd' }}
{%- endmacro %}

{#-
  The multiplicity columns of one p-value within a family (ranked in an earlier CTE with
  p_adjust_rank / p_family_size): <prefix>p_holm and <prefix>p_bh.
-#}
{% macro p_adjusted_columns(p, rank, size, family, prefix='') -%}
    {{ p_holm(p, rank, size, [family]) }} as {{ prefix }}p_holm,
    {{ p_bh(p, rank, size, [family]) }} as {{ prefix }}p_bh
{%- endmacro %}

{#-
  The column block of one RATIO of cluster totals y / x (cost per success): <prefix>,
  <prefix>_ci_low, <prefix>_ci_high (Fieller at t(C-1), ratio_fieller_bound) and <prefix>_ci_reason.
  The arguments are the two totals, the three clustered (co)variances of the totals and C (and
  optionally `crit`, a column already holding t(C-1, 0.975)).
-#}
{% macro ratio_interval_columns(y, x, v_yy, v_xx, v_xy, n_clusters, prefix, crit=none) -%}
    case when ({{ x }}) > 0 then cast(({{ y }}) as double) / ({{ x }}) end as {{ prefix }},
    {{ ratio_fieller_bound(y, x, v_yy, v_xx, v_xy, n_clusters, 'low', crit=crit) }} as {{ prefix }}_ci_low,
    {{ ratio_fieller_bound(y, x, v_yy, v_xx, v_xy, n_clusters, 'high', crit=crit) }} as {{ prefix }}_ci_high,
    {{ ratio_ci_reason(y, x, v_xx, n_clusters, crit=crit) }} as {{ prefix }}_ci_reason
{%- endmacro %}

{#-
  The ranking columns of one p-value within its multiplicity family, for the CTE before
  p_adjusted_columns: <prefix>p_rank and <prefix>p_family_size (how many p-values of the family are
  not NULL).
-#}
{% macro p_rank_columns(p, family, prefix='') -%}
    {{ p_adjust_rank(p, [family]) }} as {{ prefix }}p_rank,
    {{ p_family_size(p, [family]) }} as {{ prefix }}p_family_size
{%- endmacro %}

{#-
  The column block of one paired test, read from the CTE `alias` that holds <diff>_mean, <diff>_se,
  <test>arm_corr, <test>p_value and the p_rank_columns of that p-value (prefix <test>), and `family`:
  <diff>_mean, <diff>_se, the paired_difference_columns of <diff>, <test>arm_corr (unless
  arm_corr=false), <test>p_value, the family's count of p-values as `family_size_name` (default
  <test>p_family_size) and the p_adjusted_columns (<test>p_holm, <test>p_bh).
-#}
{% macro paired_test_columns(alias, diff, n_clusters, n_pairs, test='', family_size_name=none, arm_corr=true,
                             lower=-1, upper=1, bounded=none) -%}
    cast({{ alias }}.{{ diff }}_mean as double) as {{ diff }}_mean,
    cast({{ alias }}.{{ diff }}_se as double) as {{ diff }}_se,
    {{ paired_difference_columns(diff, alias ~ '.' ~ diff ~ '_mean', alias ~ '.' ~ diff ~ '_se', n_clusters, n_pairs,
                                 lower=lower, upper=upper, bounded=bounded) }},
    {%- if arm_corr %}
    cast({{ alias }}.{{ test }}arm_corr as double) as {{ test }}arm_corr,
    {%- endif %}
    cast({{ alias }}.{{ test }}p_value as double) as {{ test }}p_value,
    cast({{ alias }}.{{ test }}p_family_size as bigint) as {{ family_size_name or test ~ 'p_family_size' }},
    {{ p_adjusted_columns(alias ~ '.' ~ test ~ 'p_value', alias ~ '.' ~ test ~ 'p_rank',
                          alias ~ '.' ~ test ~ 'p_family_size', alias ~ '.family', prefix=test) }}
{%- endmacro %}
