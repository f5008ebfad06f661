{#-
  Engine-specific pieces of the statistics macros (macros/stats/). The macros in
  macros/stats/ are portable arithmetic; anything that needs list operations, lgamma or a
  built-in aggregate lives here behind adapter.dispatch so another engine can plug in.
  `default__` implementations are the DuckDB ones (the project's engine); `duckdb__` is only
  used where a portable `default__` exists too.
-#}

{#-
  AGGREGATE: sum over clusters of (cluster_sum_c - cluster_n_c * m)^2 with
  m = sum(cluster_sum) / sum(cluster_n). Used by cluster_se().
-#}
{% macro stats_cluster_resid_ss(cluster_sum, cluster_n) -%}
    {{ return(adapter.dispatch('stats_cluster_resid_ss', 'evalhouse')(cluster_sum, cluster_n)) }}
{%- endmacro %}

{#-
  Portable single-pass version. The residual sum of squares is expanded around the
  cluster-level means so only centred second moments are needed (SQL:2003 regr_* aggregates,
  which engines compute with stable streaming updates):
    sum (s - n*m)^2 = Syy - 2*m*Sxy + m^2*Sxx   with x = n, y = s,  m = sum(s)/sum(n)
  (the uncentred terms cancel exactly because m = ybar/xbar).
-#}
{% macro default__stats_cluster_resid_ss(cluster_sum, cluster_n) -%}
    (
        regr_syy(cast({{ cluster_sum }} as double), cast({{ cluster_n }} as double))
        - 2 * (sum(cast({{ cluster_sum }} as double)) / sum(cast({{ cluster_n }} as double)))
        * regr_sxy(cast({{ cluster_sum }} as double), cast({{ cluster_n }} as double))
        + power(sum(cast({{ cluster_sum }} as double)) / sum(cast({{ cluster_n }} as double)), 2)
        * regr_sxx(cast({{ cluster_sum }} as double), cast({{ cluster_n }} as double))
    )
{%- endmacro %}

{#-
  DuckDB: an exact two-pass computation inside one aggregate expression. The clusters are
  collected into a list, the mean m is computed from the list, then the squared residuals are
  summed in a second pass over the same list (no cancellation, exactly 0 when all clusters agree).
-#}
{% macro duckdb__stats_cluster_resid_ss(cluster_sum, cluster_n) -%}
    {#- struct_extract() rather than dotted access keeps sqlfluff's RF03 quiet in callers -#}
    (list_transform(
        list_transform(
            [list({'s': cast({{ cluster_sum }} as double), 'n': cast({{ cluster_n }} as double)})
                filter (where {{ cluster_sum }} is not null and {{ cluster_n }} is not null)],
            lambda l: {
                'l': l,
                'm': list_sum(list_transform(l, lambda q: struct_extract(q, 's')))
                    / list_sum(list_transform(l, lambda q: struct_extract(q, 'n')))
            }
        ),
        lambda a: list_sum(list_transform(
            struct_extract(a, 'l'),
            lambda r: (struct_extract(r, 's') - struct_extract(r, 'n') * struct_extract(a, 'm'))
                * (struct_extract(r, 's') - struct_extract(r, 'n') * struct_extract(a, 'm'))
        ))
    ))[1]
{%- endmacro %}

{#-
  SCALAR: lower binomial tail at p = 1/2, sum_{i=0}^{k} C(n, i) / 2^n, via lgamma
  (DuckDB has no binomial CDF). Each term is exp(lgamma(n+1) - lgamma(i+1) - lgamma(n-i+1) - n*ln 2),
  so nothing overflows for large n; terms below ~1e-308 underflow to 0, which is harmless
  for a sum that is compared at 1e-9.
-#}
{% macro stats_binom_half_cdf(k, n) -%}
    {{ return(adapter.dispatch('stats_binom_half_cdf', 'evalhouse')(k, n)) }}
{%- endmacro %}
{% macro default__stats_binom_half_cdf(k, n) -%}
    list_sum(list_transform(
        range(0, cast({{ k }} as bigint) + 1),
        lambda i: exp(
            lgamma(cast({{ n }} as double) + 1)
            - lgamma(cast(i as double) + 1)
            - lgamma(cast({{ n }} as double) - cast(i as double) + 1)
            - cast({{ n }} as double) * 0.6931471805599453
        )
    ))
{%- endmacro %}

{#- AGGREGATE: Pearson correlation of x and y (NULL with fewer than 2 pairs or zero variance). -#}
{% macro stats_corr(x, y) -%}
    {{ return(adapter.dispatch('stats_corr', 'evalhouse')(x, y)) }}
{%- endmacro %}
{% macro default__stats_corr(x, y) -%}
    (case
        when count(case when ({{ x }}) is not null and ({{ y }}) is not null then 1 end) >= 2
            and var_pop(case when ({{ y }}) is not null then cast(({{ x }}) as double) end) > 0
            and var_pop(case when ({{ x }}) is not null then cast(({{ y }}) as double) end) > 0
            then corr(cast(({{ y }}) as double), cast(({{ x }}) as double))
    end)
{%- endmacro %}

{#-
  SCALAR: two-sided p-value 2 * P(T_df > |t|) for integer df >= 1, from the finite series of
  Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df) for A(t|df) = P(|T| <= |t|), with
  theta = atan(|t| / sqrt(df)):
    df = 1:      A = 2 theta / pi
    df odd > 1:  A = 2/pi * (theta + sin(theta) * sum_{k=0}^{(df-3)/2} a_k cos(theta)^(2k+1)),
                 a_k = k! Gamma(3/2) / Gamma(k + 3/2)
    df even:     A = sin(theta) * sum_{k=0}^{(df-2)/2} b_k cos(theta)^(2k),
                 b_k = Gamma(k + 1/2) / (Gamma(1/2) k!)
  Coefficients via lgamma, so no term overflows; p = 1 - A (absolute error ~1e-15).
-#}
{% macro default__stats_t_two_sided_p(t, df) -%}
    (case
        when ({{ t }}) is null or ({{ df }}) is null or ({{ df }}) < 1 then cast(null as double)
        when ({{ t }}) = 0 then cast(1 as double)
        else greatest(cast(0 as double), least(cast(1 as double), 1 - (case
            when ({{ df }}) = 1 then 2 * atan(abs({{ t }}) / sqrt(cast(({{ df }}) as double))) / pi()
            when ({{ df }}) % 2 = 1 then 2 / pi() * (
                atan(abs({{ t }}) / sqrt(cast(({{ df }}) as double)))
                + sin(atan(abs({{ t }}) / sqrt(cast(({{ df }}) as double)))) * list_sum(list_transform(
                    range(0, cast((({{ df }}) - 3) / 2 as bigint) + 1),
                    lambda k: exp(
                        lgamma(cast(k as double) + 1) + lgamma(1.5) - lgamma(cast(k as double) + 1.5)
                        + (2 * cast(k as double) + 1) * ln(cos(atan(abs({{ t }}) / sqrt(cast(({{ df }}) as double)))))
                    )
                )))
            else sin(atan(abs({{ t }}) / sqrt(cast(({{ df }}) as double)))) * list_sum(list_transform(
                range(0, cast((({{ df }}) - 2) / 2 as bigint) + 1),
                lambda k: exp(
                    lgamma(cast(k as double) + 0.5) - lgamma(0.5) - lgamma(cast(k as double) + 1)
                    + 2 * cast(k as double) * ln(cos(atan(abs({{ t }}) / sqrt(cast(({{ df }}) as double)))))
                )
            ))
        end)))
    end)
{%- endmacro %}

{#-
  SCALAR: C(a, k) / C(n, k) for integers 0 <= k <= n, a <= n: the probability that k draws without
  replacement from n items all fall among a given a of them; 0 when a < k, 1 when a = n, a / n when k = 1 (exact),
  otherwise via lgamma (no overflow).
  Used by the unbiased pass@k (Chen et al. 2021) and pass^k (Yao et al. 2024) estimators.
-#}
{% macro stats_comb_ratio(a, n, k) -%}
    (case
        when ({{ a }}) is null or ({{ n }}) is null or ({{ k }}) is null or ({{ k }}) > ({{ n }}) then cast(null as double)
        when ({{ a }}) < ({{ k }}) then cast(0 as double)
        when ({{ a }}) = ({{ n }}) then cast(1 as double)
        when ({{ k }}) = 1 then cast(({{ a }}) as double) / cast(({{ n }}) as double)
        else exp(
            {{ stats_lgamma('cast((' ~ a ~ ') as double) + 1') }} - {{ stats_lgamma('cast((' ~ a ~ ') - (' ~ k ~ ') as double) + 1') }}
            - {{ stats_lgamma('cast((' ~ n ~ ') as double) + 1') }} + {{ stats_lgamma('cast((' ~ n ~ ') - (' ~ k ~ ') as double) + 1') }}
        )
    end)
{%- endmacro %}

{#- SCALAR: ln(Gamma(x)) for x > 0: the engine's lgamma (Spark has none: spark_lgamma, a Lanczos series). -#}
{% macro stats_lgamma(x) -%}
    {{ return(adapter.dispatch('stats_lgamma', 'evalhouse')(x)) }}
{%- endmacro %}
{% macro default__stats_lgamma(x) -%}
    lgamma({{ x }})
{%- endmacro %}

{#-
  Student-t quantile (macros/stats/inference.sql t_quantile): the portable expression inline, or on DuckDB a
  call of the SQL macro evalhouse_t_q<1000 p>(df) that stats_create_functions() defines with that same
  expression (results are identical; only the compiled text is shorter).
-#}
{% macro default__stats_t_quantile(df, p) -%}
    {{ stats_t_quantile_expression(df, p) }}
{%- endmacro %}

{% macro duckdb__stats_t_quantile(df, p) -%}
    evalhouse_t_q{{ (p * 1000) | round | int }}({{ df }})
{%- endmacro %}

{#-
  on-run-start (dbt_project.yml): the SQL functions the engine-specific macros above call. DuckDB: one
  persistent scalar macro per tabulated p, in the main schema of the warehouse file (so views and the
  analyst file resolve them too); other engines: nothing to create.
-#}
{% macro stats_create_functions() -%}
    {{ return(adapter.dispatch('stats_create_functions', 'evalhouse')()) }}
{%- endmacro %}

{% macro default__stats_create_functions() -%}
    select 1
{%- endmacro %}

{% macro duckdb__stats_create_functions() -%}
    {%- for p in stats_t_quantile_table() | sort %}
    create or replace macro main.evalhouse_t_q{{ (p * 1000) | round | int }}(df) as {{ stats_t_quantile_expression('df', p) }};
    {%- endfor %}
{%- endmacro %}
