{#-
  Spark implementations of the engine-specific statistics pieces (macros/engine/stats.sql). Spark has no
  lgamma and no list_transform: lgamma is the Lanczos approximation (g = 7, 9 coefficients; relative
  error about 1e-15 for x >= 0.5, the only arguments used here), and a finite series is
  aggregate(sequence(lo, hi), ...) (DuckDB's range(lo, hi + 1); an empty range sums to NULL on both).
-#}

{#- SCALAR: ln(Gamma(x)) for x >= 0.5 (Lanczos). -#}
{% macro spark_lgamma(x) -%}
    {%- set c = [676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
                 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7] -%}
    (0.9189385332046727 + ((({{ x }}) - 1) + 0.5) * ln((({{ x }}) - 1) + 7.5) - ((({{ x }}) - 1) + 7.5)
        + ln(0.99999999999980993
        {%- for ci in c %} + ({{ '%.17g' | format(ci) }}) / ((({{ x }}) - 1) + {{ loop.index }}){% endfor %}))
{%- endmacro %}

{#- SCALAR: sum over integer i in [lo, hi] of `body` (a SQL expression in `var`); NULL when hi < lo. -#}
{% macro spark_series_sum(lo, hi, var, body) -%}
    (case when ({{ hi }}) >= ({{ lo }}) then aggregate(
        sequence(cast(({{ lo }}) as bigint), cast(({{ hi }}) as bigint)),
        cast(0 as double),
        (acc_sum, {{ var }}) -> acc_sum + ({{ body }})
    ) end)
{%- endmacro %}

{% macro spark__stats_binom_half_cdf(k, n) -%}
    {{ evalhouse.spark_series_sum(0, 'cast(' ~ k ~ ' as bigint)', 'i',
        'exp(' ~ evalhouse.spark_lgamma('cast(' ~ n ~ ' as double) + 1')
        ~ ' - ' ~ evalhouse.spark_lgamma('cast(i as double) + 1')
        ~ ' - ' ~ evalhouse.spark_lgamma('cast(' ~ n ~ ' as double) - cast(i as double) + 1')
        ~ ' - cast(' ~ n ~ ' as double) * 0.6931471805599453)') }}
{%- endmacro %}

{% macro spark__stats_t_two_sided_p(t, df) -%}
    {%- set theta = 'atan(abs(' ~ t ~ ') / sqrt(cast((' ~ df ~ ') as double)))' -%}
    (case
        when ({{ t }}) is null or ({{ df }}) is null or ({{ df }}) < 1 then cast(null as double)
        when ({{ t }}) = 0 then cast(1 as double)
        else greatest(cast(0 as double), least(cast(1 as double), 1 - (case
            when ({{ df }}) = 1 then 2 * {{ theta }} / pi()
            when ({{ df }}) % 2 = 1 then 2 / pi() * (
                {{ theta }}
                + sin({{ theta }}) * {{ evalhouse.spark_series_sum(0, 'cast(((' ~ df ~ ') - 3) / 2 as bigint)', 'k',
                    'exp(' ~ evalhouse.spark_lgamma('cast(k as double) + 1') ~ ' + ' ~ evalhouse.spark_lgamma('1.5')
                    ~ ' - ' ~ evalhouse.spark_lgamma('cast(k as double) + 1.5')
                    ~ ' + (2 * cast(k as double) + 1) * ln(cos(' ~ theta ~ ')))') }})
            else sin({{ theta }}) * {{ evalhouse.spark_series_sum(0, 'cast(((' ~ df ~ ') - 2) / 2 as bigint)', 'k',
                    'exp(' ~ evalhouse.spark_lgamma('cast(k as double) + 0.5') ~ ' - ' ~ evalhouse.spark_lgamma('0.5')
                    ~ ' - ' ~ evalhouse.spark_lgamma('cast(k as double) + 1')
                    ~ ' + 2 * cast(k as double) * ln(cos(' ~ theta ~ ')))') }}
        end)))
    end)
{%- endmacro %}

{% macro spark__stats_lgamma(x) -%}
    {{ evalhouse.spark_lgamma(x) }}
{%- endmacro %}

{#- AGGREGATE: the exact two-pass residual sum of squares of duckdb__stats_cluster_resid_ss, over collect_list. -#}
{% macro spark__stats_cluster_resid_ss(cluster_sum, cluster_n) -%}
    {%- set l = 'collect_list(case when (' ~ cluster_sum ~ ') is not null and (' ~ cluster_n ~ ') is not null then '
        ~ 'named_struct(\'s\', cast(' ~ cluster_sum ~ ' as double), \'n\', cast(' ~ cluster_n ~ ' as double)) end)' -%}
    {%- set m = '(aggregate(' ~ l ~ ', cast(0 as double), (acc_s, q) -> acc_s + q.s) / aggregate(' ~ l
        ~ ', cast(0 as double), (acc_n, q) -> acc_n + q.n))' -%}
    (case when size({{ l }}) > 0 then aggregate(
        {{ l }}, cast(0 as double),
        (acc_r, r) -> acc_r + (r.s - r.n * {{ m }}) * (r.s - r.n * {{ m }})
    ) end)
{%- endmacro %}
