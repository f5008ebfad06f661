{#-
  Compile-time standard-normal quantile (inverse CDF) for min_detectable_difference with
  non-default alpha/power. Pure Jinja arithmetic (no engine function needed):
    * exp(y) by range reduction y = k*ln2 + r, |r| <= ln2/2, and a Taylor series for exp(r);
    * Phi(x) for x >= 0 by Marsaglia's (2004) series Phi(x) = 1/2 + phi(x) * sum x^(2i+1)/(1*3*...*(2i+1)),
      whose terms are all positive (no cancellation), absolute error ~1e-16;
    * Newton iterations x <- x - (Phi(x) - p)/phi(x) from x = 0, monotone for p > 1/2 since
      Phi is concave on x >= 0.
  Accurate to ~1e-13 for p in [1e-3, 1 - 1e-3] and ~1e-10 at the allowed extremes
  [1e-6, 1 - 1e-6] (outside: compiler error). The two quantiles used by default (0.975 and
  0.8) are returned as exact constants.
-#}
{% macro stats_exp(y) -%}
    {%- set ln2 = 0.6931471805599453 -%}
    {%- set k = (y / ln2) | round | int -%}
    {%- set ns = namespace(term=1.0, total=1.0) -%}
    {%- set r = y - k * ln2 -%}
    {%- for i in range(1, 30) -%}
        {%- set ns.term = ns.term * r / i -%}
        {%- set ns.total = ns.total + ns.term -%}
    {%- endfor -%}
    {{ return(ns.total * (2.0 ** k)) }}
{%- endmacro %}

{% macro stats_norm_cdf(x) -%}
    {%- set ax = x if x >= 0 else -x -%}
    {%- set q = ax * ax -%}
    {%- set ns = namespace(b=ax, s=ax) -%}
    {%- for i in range(3, 1000, 2) if ns.b > 1e-18 * ns.s -%}
        {%- set ns.b = ns.b * q / i -%}
        {%- set ns.s = ns.s + ns.b -%}
    {%- endfor -%}
    {%- set upper_half = ns.s * stats_exp(-0.5 * q - 0.91893853320467274178) -%}
    {{ return(0.5 + upper_half if x >= 0 else 0.5 - upper_half) }}
{%- endmacro %}

{% macro stats_norm_ppf(p) -%}
    {%- set p = p | float -%}
    {%- if p < 0.000001 or p > 0.999999 -%}
        {{ exceptions.raise_compiler_error("stats_norm_ppf: p must be in [1e-6, 1 - 1e-6], got " ~ p) }}
    {%- endif -%}
    {%- if p == 0.975 -%}{{ return(1.959963984540054) }}{%- endif -%}
    {%- if p == 0.8 -%}{{ return(0.8416212335729143) }}{%- endif -%}
    {%- if p == 0.5 -%}{{ return(0.0) }}{%- endif -%}
    {%- set pp = p if p > 0.5 else 1 - p -%}
    {%- set ns = namespace(x=0.0, step=1.0) -%}
    {%- for i in range(100) if ns.step > 1e-15 or ns.step < -1e-15 -%}
        {%- set dens = stats_exp(-0.5 * ns.x * ns.x - 0.91893853320467274178) -%}
        {%- set ns.step = (stats_norm_cdf(ns.x) - pp) / dens -%}
        {%- set ns.x = ns.x - ns.step -%}
    {%- endfor -%}
    {{ return(ns.x if p > 0.5 else -ns.x) }}
{%- endmacro %}
