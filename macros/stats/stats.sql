{#-
  Statistics macros (issue 5). Every macro returns a SQL expression; see
  macros/stats/_stats__macros.yml for arguments and docs/statistics.md for the methods.
  z = 1.959963984540054 is the 0.975 standard-normal quantile (two-sided 95%).
-#}

{% macro stats_z95() -%}1.959963984540054{%- endmacro %}

{#- True for a finite number; false for an infinity or NaN; NULL for NULL. x - x is 0 for a finite x only
    (inf - inf and NaN - NaN are NaN), on DuckDB and Spark alike. -#}
{% macro is_finite(x) -%}
    (({{ x }}) - ({{ x }}) = 0)
{%- endmacro %}

{#-
  Wilson score interval for k successes out of n trials (Wilson 1927), z = 1.959963984540054:
    centre = (k + z^2/2) / (n + z^2),  half = z * sqrt(k*(n-k)/n + z^2/4) / (n + z^2)
  NULL when n is NULL or n <= 0 or k is outside [0, n]. k = 0 gives low = 0 exactly and
  k = n gives high = 1 exactly. The formula is wilson_bound (macros/stats/inference.sql) at p = k/n
  with the z critical value; the clustered rates use the same macro at a design-effect n with t(C-1).
-#}
{% macro wilson_low(k, n) -%}
    {{ stats_wilson_kn(k, n, 'low') }}
{%- endmacro %}

{% macro wilson_high(k, n) -%}
    {{ stats_wilson_kn(k, n, 'high') }}
{%- endmacro %}

{% macro stats_wilson_kn(k, n, side) -%}
    (case
        when ({{ n }}) is null or ({{ k }}) is null or ({{ n }}) <= 0 or ({{ k }}) < 0 or ({{ k }}) > ({{ n }}) then null
        else {{ wilson_bound('cast((' ~ k ~ ') as double) / (' ~ n ~ ')', n, stats_z95(), side) }}
    end)
{%- endmacro %}

{#-
  AGGREGATE over rows that are one per cluster: cluster-robust standard error of the mean
  m = sum(cluster_sum) / sum(cluster_n):
    SE = sqrt( C/(C-1) * sum_c (cluster_sum_c - cluster_n_c * m)^2 ) / sum(cluster_n)
  Only clusters with at least one observation count: rows where cluster_sum is NULL or
  cluster_n is NULL or <= 0 are ignored (they are not clusters of this mean). C = number of
  remaining rows; NULL when C < 2. With one observation per cluster this is the usual sample
  SE of the mean.
-#}
{% macro cluster_se(cluster_sum, cluster_n) -%}
    {%- set s = '(case when (' ~ cluster_n ~ ') > 0 then cast((' ~ cluster_sum ~ ') as double) end)' -%}
    {%- set n = '(case when (' ~ cluster_sum ~ ') is not null and (' ~ cluster_n ~ ') > 0 then cast((' ~ cluster_n ~ ') as double) end)' -%}
    (case
        when count({{ n }}) >= 2
            then sqrt(greatest(cast(0 as double),
                cast(count({{ n }}) as double) / (cast(count({{ n }}) as double) - 1)
                * {{ stats_cluster_resid_ss(s, n) }}
            )) / sum({{ n }})
    end)
{%- endmacro %}

{#-
  Normal-approximation confidence bounds mean -/+ z*se, clipped to [lower, upper] unless those
  are none. NULL when mean or se is NULL.
-#}
{% macro mean_ci_low(mean, se, lower=0, upper=1) -%}
    {{ stats_clip('((' ~ mean ~ ') - ' ~ stats_z95() ~ ' * (' ~ se ~ '))', mean, se, lower, upper) }}
{%- endmacro %}

{% macro mean_ci_high(mean, se, lower=0, upper=1) -%}
    {{ stats_clip('((' ~ mean ~ ') + ' ~ stats_z95() ~ ' * (' ~ se ~ '))', mean, se, lower, upper) }}
{%- endmacro %}

{% macro stats_clip(expr, mean, se, lower, upper) -%}
    {%- set e = 'cast(' ~ expr ~ ' as double)' -%}
    {%- if upper is not none -%}{%- set e = 'least(cast(' ~ upper ~ ' as double), ' ~ e ~ ')' -%}{%- endif -%}
    {%- if lower is not none -%}{%- set e = 'greatest(cast(' ~ lower ~ ' as double), ' ~ e ~ ')' -%}{%- endif -%}
    (case when ({{ mean }}) is null or ({{ se }}) is null then null else {{ e }} end)
{%- endmacro %}

{#-
  Exact two-sided McNemar test (McNemar 1947) on the discordant counts b and c: the exact
  binomial test of min(b, c) in b + c trials at p = 1/2,
    p = min(1, 2 * sum_{i=0}^{min(b,c)} C(b+c, i) / 2^(b+c)),  1.0 when b + c = 0.
  Equals scipy.stats.binomtest(min(b,c), b+c, 0.5).pvalue. NULL when b or c is NULL or negative.
-#}
{% macro mcnemar_exact_p(b, c) -%}
    (case
        when ({{ b }}) is null or ({{ c }}) is null or ({{ b }}) < 0 or ({{ c }}) < 0 then null
        when ({{ b }}) = ({{ c }}) then cast(1 as double)
        else least(cast(1 as double), 2 * {{ stats_binom_half_cdf(
            'least(' ~ b ~ ', ' ~ c ~ ')', '(' ~ b ~ ') + (' ~ c ~ ')') }})
    end)
{%- endmacro %}

{#-
  Minimum detectable difference (two-sided test at level alpha with the given power) for an
  estimate with standard error se:  (z_{1-alpha/2} + z_{power}) * se.  The quantiles are
  computed at compile time (stats_norm_ppf) and are exact constants for the defaults.
-#}
{% macro min_detectable_difference(se, alpha=0.05, power=0.8) -%}
    {%- set za = stats_norm_ppf(1 - alpha / 2) | float -%}
    {%- set zb = stats_norm_ppf(power) | float -%}
    (({{ '%.17g' | format(za + zb) }}) * ({{ se }}))
{%- endmacro %}

{#- AGGREGATE Pearson correlation (dispatches to the engine; DuckDB corr()). -#}
{% macro corr(x, y) -%}
    {{ stats_corr(x, y) }}
{%- endmacro %}
