{#-
  Small-sample inference (contract: statistics conventions, revised 2026-12). Every macro returns
  a scalar SQL expression (the p-value adjustments are window expressions); docs/statistics.md
  has the methods and tests/stats/test_inference_macros.py checks them against scipy to 1e-9.

  df is always an integer expression: C - 1 for C clusters.
-#}

{#-
  Student-t quantile t(df, p) for p in the generated table (0.975, 0.9, 0.8): for df = 1..100 the
  scipy value, picked from one comma-separated string literal (split_part: one node for the parser, the
  same text on every engine; scripts/gen_t_quantiles.py), the four-term Cornish-Fisher expansion
  (Abramowitz & Stegun 26.7.5) beyond, where its error is below 1e-10. NULL when df is NULL or < 1.
-#}
{% macro t_quantile(df, p=0.975) -%}
    {%- set table = stats_t_quantile_table() -%}
    {%- if p not in table -%}
        {{ exceptions.raise_compiler_error("t_quantile: p must be one of " ~ (table.keys() | list) ~ ", got " ~ p) }}
    {%- endif -%}
    {{ return(adapter.dispatch('stats_t_quantile', 'evalhouse')(df, p)) }}
{%- endmacro %}

{#-
  The expression itself (portable SQL). On DuckDB it is the body of a SQL macro per p, created once per dbt
  invocation (stats_create_functions, on-run-start), so a model's compiled SQL carries a short call instead of
  the 2 KB table at every use (a mart with 48 intervals compiled to 134 KB, mostly copies of it).
-#}
{% macro stats_t_quantile_expression(df, p) -%}
    {%- set table = stats_t_quantile_table() -%}
    {%- set z = table[p]['z'] -%}
    {%- set g1 = (z ** 3 + z) / 4 -%}
    {%- set g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96 -%}
    {%- set g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384 -%}
    {%- set g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160 -%}
    {%- set d = 'cast((' ~ df ~ ') as double)' -%}
    {%- set values = [] -%}
    {%- for q in table[p]['t'] -%}{%- do values.append('%.17g' | format(q)) -%}{%- endfor -%}
    (case
        when ({{ df }}) is null or ({{ df }}) < 1 then cast(null as double)
        when ({{ df }}) <= {{ values | length }}
            then cast(split_part('{{ values | join(",") }}', ',', cast(({{ df }}) as integer)) as double)
        else {{ '%.17g' | format(z) }} + {{ '%.17g' | format(g1) }} / {{ d }}
            + {{ '%.17g' | format(g2) }} / power({{ d }}, 2) + {{ '%.17g' | format(g3) }} / power({{ d }}, 3)
            + {{ '%.17g' | format(g4) }} / power({{ d }}, 4)
    end)
{%- endmacro %}

{#-
  Two-sided p-value of a t statistic with integer df: 2 * P(T_df > |t|), by the finite series of
  Abramowitz & Stegun 26.7.3 / 26.7.4 (engine part: macros/engine/stats.sql). NULL when t or df is
  NULL or df < 1.
-#}
{% macro t_two_sided_p(t, df) -%}
    {{ return(adapter.dispatch('stats_t_two_sided_p', 'evalhouse')(t, df)) }}
{%- endmacro %}

{#-
  Paired t-test p-value of a mean difference with clustered SE on df = C - 1: NULL when C < 2 or
  SE is NULL; when SE = 0 (below 1e-12: every cluster agrees) 1 if the mean is 0, else NULL (the t statistic is
  not finite; the row's interval still says how large the difference is).
-#}
{% macro paired_t_p(mean, se, df) -%}
    (case
        when ({{ mean }}) is null or ({{ se }}) is null or ({{ df }}) is null or ({{ df }}) < 1 then cast(null as double)
        when ({{ se }}) <= 1e-12 then (case when abs({{ mean }}) <= 1e-12 then cast(1 as double) end)
        else {{ t_two_sided_p('(' ~ mean ~ ') / (' ~ se ~ ')', df) }}
    end)
{%- endmacro %}

{#-
  Wilson score bound for a proportion p observed on an effective sample size n (not necessarily an
  integer) with critical value crit:
    centre = (p + crit^2/(2n)) / (1 + crit^2/n),  half = crit/(1 + crit^2/n) * sqrt(p(1-p)/n + crit^2/(4n^2))
  side = 'low' or 'high'. p = 0 gives low exactly 0, p = 1 high exactly 1. NULL when p, n or crit is NULL or n <= 0.
-#}
{% macro wilson_bound(p, n, crit, side) -%}
    {%- set pp = 'cast((' ~ p ~ ') as double)' -%}
    {%- set nn = 'cast((' ~ n ~ ') as double)' -%}
    {%- set cc = 'cast((' ~ crit ~ ') as double)' -%}
    {%- set centre = '(' ~ pp ~ ' + ' ~ cc ~ ' * ' ~ cc ~ ' / (2 * ' ~ nn ~ ')) / (1 + ' ~ cc ~ ' * ' ~ cc ~ ' / ' ~ nn ~ ')' -%}
    {%- set half = cc ~ ' / (1 + ' ~ cc ~ ' * ' ~ cc ~ ' / ' ~ nn ~ ') * sqrt(greatest(cast(0 as double), '
        ~ pp ~ ' * (1 - ' ~ pp ~ ') / ' ~ nn ~ ' + ' ~ cc ~ ' * ' ~ cc ~ ' / (4 * ' ~ nn ~ ' * ' ~ nn ~ ')))' -%}
    (case
        when ({{ p }}) is null or ({{ n }}) is null or ({{ crit }}) is null or ({{ n }}) <= 0 then cast(null as double)
    {%- if side == 'low' %}
        when ({{ p }}) <= 0 then cast(0 as double)
        else greatest(cast(0 as double), {{ centre }} - {{ half }})
    {%- else %}
        when ({{ p }}) >= 1 then cast(1 as double)
        else least(cast(1 as double), {{ centre }} + {{ half }})
    {%- endif %}
    end)
{%- endmacro %}

{#-
  Design-effect sample size of a clustered proportion p = k/n with clustered SE se:
  n_eff = p(1-p)/se^2, at most n; n when p is 0 or 1 or se is 0 (below 1e-12: no between-cluster
  spread seen).
-#}
{% macro effective_n(k, n, se) -%}
    (case
        when ({{ n }}) is null or ({{ n }}) <= 0 or ({{ k }}) is null then cast(null as double)
        when ({{ k }}) <= 0 or ({{ k }}) >= ({{ n }}) or ({{ se }}) is null or ({{ se }}) <= 1e-12
            then cast(({{ n }}) as double)
        else least(cast(({{ n }}) as double),
            (cast(({{ k }}) as double) / ({{ n }})) * (1 - cast(({{ k }}) as double) / ({{ n }}))
            / (cast(({{ se }}) as double) * ({{ se }})))
    end)
{%- endmacro %}

{#-
  Interval bound of a clustered binary rate k/n with C clusters and clustered SE se: Wilson at the
  design-effect sample size with critical value t(C-1, 0.975) (NCHS standard for proportions,
  Parker et al. 2017; Korn and Graubard 1998). NULL when C < 2 or n <= 0.
-#}
{% macro clustered_rate_bound(k, n, se, n_clusters, side) -%}
    (case
        when ({{ n_clusters }}) is null or ({{ n_clusters }}) < 2 or ({{ n }}) is null or ({{ n }}) <= 0
            then cast(null as double)
        else {{ wilson_bound('cast((' ~ k ~ ') as double) / (' ~ n ~ ')', effective_n(k, n, se),
                             t_quantile('(' ~ n_clusters ~ ') - 1'), side) }}
    end)
{%- endmacro %}

{#-
  Interval bound of a clustered mean with C clusters, n observations and CR1 SE.
  * A mean on the unit range (lower=0, upper=1: change, regress, scores) strictly inside (0, 1), with
    C >= 4 clusters: the t(C-1, 0.975) interval on the variance-stabilising angular scale,
    back-transformed:
        a = asin(sqrt(m)),  se_a = SE / (2 sqrt(m (1 - m)))   (delta method),
        [sin(max(0, a - t se_a))^2, sin(min(pi/2, a + t se_a))^2].
    Near a bound the plain t interval undercovers (the SE shrinks exactly when the mean overshoots
    toward the bound: 0.89-0.91 for a true mean of 0.97 at C = 8 in the project's coverage study);
    the angular interval stretches toward the interior and holds >= 0.92 at about the width of the
    t reference (docs/statistics.md). With 2 or 3 clusters the t critical value (12.7, 4.3) already
    dominates the skew: the plain t interval covers >= 0.95 there and the angular one would be up to
    twice as wide for nothing, so C < 4 takes the t interval.
  * Any other range (paired differences in [-1, 1], widened or unbounded means):
    mean -/+ t(C-1, 0.975) * SE clipped to [lower, upper].
  * SE = 0 (below 1e-12: floating-point residue of clusters that agree) with both bounds given: the
    Wilson bound of the mean rescaled to [0, 1] at n observations with the same critical value, so a
    mean is never reported as [m, m].
  * binary (a SQL boolean, on the unit range only): true when every observation behind the mean is 0 or 1.
    Such a mean IS a clustered binary rate, and takes the rate's interval (clustered_rate_bound: Wilson
    at the design-effect n, at most n_obs): the angular t interval of a pass/fail mean covers 0.88 over
    few skewed clusters, the rate interval >= 0.94 at about the same width (docs/statistics.md, "Known
    limitation: skewed clusters").
  NULL when C < 2 or the mean or SE is NULL.
-#}
{% macro clustered_mean_bound(mean, se, n_clusters, n_obs, side, lower=0, upper=1, binary=none) -%}
    {%- set crit = t_quantile('(' ~ n_clusters ~ ') - 1') -%}
    {%- set sign = '-' if side == 'low' else '+' -%}
    {%- set e = 'cast((' ~ mean ~ ') ' ~ sign ~ ' ' ~ crit ~ ' * (' ~ se ~ ') as double)' -%}
    {%- if upper is not none -%}{%- set e = 'least(cast(' ~ upper ~ ' as double), ' ~ e ~ ')' -%}{%- endif -%}
    {%- if lower is not none -%}{%- set e = 'greatest(cast(' ~ lower ~ ' as double), ' ~ e ~ ')' -%}{%- endif -%}
    {%- set unit = (lower | string) == '0' and (upper | string) == '1' -%}
    {%- set m = 'cast((' ~ mean ~ ') as double)' -%}
    {%- set angle = 'asin(sqrt(' ~ m ~ ')) ' ~ sign ~ ' ' ~ crit ~ ' * (' ~ se ~ ') / (2 * sqrt(' ~ m ~ ' * (1 - ' ~ m ~ ')))' -%}
    (case
        when ({{ mean }}) is null or ({{ se }}) is null or ({{ n_clusters }}) is null or ({{ n_clusters }}) < 2
            then cast(null as double)
        -- an infinite or NaN estimate or SE (a score of inf) has no interval
        when not ({{ is_finite(mean) }} and {{ is_finite(se) }}) then cast(null as double)
    {%- if binary is not none and unit %}
        when ({{ binary }}) then {{ clustered_rate_bound(m ~ ' * (' ~ n_obs ~ ')', n_obs, se, n_clusters, side) }}
    {%- endif %}
    {%- if lower is not none and upper is not none %}
        when ({{ se }}) <= 1e-12 then cast({{ lower }} as double) + (cast({{ upper }} as double) - cast({{ lower }} as double)) * {{
            wilson_bound('(cast((' ~ mean ~ ') as double) - (' ~ lower ~ ')) / ((' ~ upper ~ ') - (' ~ lower ~ '))',
                         n_obs, crit, side) }}
    {%- endif %}
    {%- if unit %}
        when ({{ mean }}) > 0 and ({{ mean }}) < 1 and ({{ n_clusters }}) >= 4 then power(sin(
            {%- if side == 'low' %} greatest(cast(0 as double), {{ angle }}){% else %} least(pi() / 2, {{ angle }}){% endif %}), 2)
    {%- endif %}
        else {{ e }}
    end)
{%- endmacro %}

{#-
  Why a clustered interval is NULL, or NULL when it is not: 'no observations' or `too_few` below 2
  clusters ('fewer than 2 clusters': one cluster says nothing about the spread between clusters).
-#}
{% macro ci_null_reason(estimate, n_clusters, too_few='fewer than 2 clusters') -%}
    (case
        when ({{ estimate }}) is null then 'no observations'
        when ({{ n_clusters }}) is null or ({{ n_clusters }}) < 2 then '{{ too_few }}'
        when not {{ is_finite(estimate) }} then 'the estimate is not finite'
    end)
{%- endmacro %}

{#-
  Minimum detectable difference of a paired comparison on C clusters:
  (t(C-1, 1 - alpha/2) + t(C-1, power)) * se at alpha = 0.05 and power 0.8 (or 0.9).
  NULL when se is NULL or 0 (below 1e-12; never a zero MDD) or C < 2.
-#}
{% macro t_min_detectable_difference(se, n_clusters, power=0.8) -%}
    (case
        when ({{ se }}) is null or ({{ se }}) <= 1e-12 or ({{ n_clusters }}) is null or ({{ n_clusters }}) < 2
            then cast(null as double)
        else ({{ t_quantile('(' ~ n_clusters ~ ') - 1', 0.975) }} + {{ t_quantile('(' ~ n_clusters ~ ') - 1', power) }})
            * cast(({{ se }}) as double)
    end)
{%- endmacro %}

{#-
  Multiplicity. Two steps, because window functions do not nest:
  1. in one CTE, p_adjust_rank(p, partition_by) as <x>_rank and p_family_size(p, partition_by) as
     <x>_family_size (the number of non-NULL p-values in the family);
  2. in the next, p_holm(p, rank, size, partition_by) and p_bh(p, rank, size, partition_by).
  Holm (1979) step-down: p_(i) -> max_{j <= i} min(1, (m - j + 1) p_(j)).
  Benjamini-Hochberg (1995): p_(i) -> min_{j >= i} min(1, m p_(j) / j). Both equal
  statsmodels.stats.multitest.multipletests; NULL p-values are not tests (ranked last, left NULL).
-#}
{% macro p_adjust_rank(p, partition_by) -%}
    row_number() over (partition by {{ partition_by | join(', ') }} order by {{ p }} asc nulls last)
{%- endmacro %}

{% macro p_family_size(p, partition_by) -%}
    count({{ p }}) over (partition by {{ partition_by | join(', ') }})
{%- endmacro %}

{% macro p_holm(p, rank, size, partition_by) -%}
    (case when ({{ p }}) is not null then max(
        case when ({{ p }}) is not null then least(cast(1 as double), (({{ size }}) - ({{ rank }}) + 1) * cast(({{ p }}) as double)) end
    ) over (partition by {{ partition_by | join(', ') }} order by {{ rank }} rows between unbounded preceding and current row) end)
{%- endmacro %}

{% macro p_bh(p, rank, size, partition_by) -%}
    (case when ({{ p }}) is not null then min(
        case when ({{ p }}) is not null then least(cast(1 as double), ({{ size }}) * cast(({{ p }}) as double) / ({{ rank }})) end
    ) over (partition by {{ partition_by | join(', ') }} order by {{ rank }} rows between current row and unbounded following) end)
{%- endmacro %}

{#- Pearson correlation clamped to [-1, 1] and NULL below 3 pairs (a correlation of 2 points is +-1). -#}
{% macro arm_corr(x, y) -%}
    (case
        when count(case when ({{ x }}) is not null and ({{ y }}) is not null then 1 end) >= 3
            then greatest(cast(-1 as double), least(cast(1 as double), {{ corr(x, y) }}))
    end)
{%- endmacro %}

{#-
  Cluster-level covariance of two estimated TOTALS from C sampled clusters (with-replacement design,
  the CR1 factor): C / (C - 1) * (sum(a_c b_c) - sum(a_c) sum(b_c) / C). Pass the three sums and C.
  NULL when C < 2.
-#}
{% macro cluster_total_cov(sum_ab, sum_a, sum_b, n_clusters) -%}
    (case
        when ({{ n_clusters }}) is null or ({{ n_clusters }}) < 2 then cast(null as double)
        else cast(({{ n_clusters }}) as double) / (cast(({{ n_clusters }}) as double) - 1)
            * (cast(({{ sum_ab }}) as double) - cast(({{ sum_a }}) as double) * cast(({{ sum_b }}) as double)
                / cast(({{ n_clusters }}) as double))
    end)
{%- endmacro %}

{#-
  Fieller interval bound of a ratio of two cluster totals R = Y / X (cost per success: Y the cost,
  X the successes), with the clustered variances v_yy, v_xx and covariance v_xy of the totals
  (cluster_total_cov) and critical value t(C-1, 0.975). The set {R : (Y - R X)^2 <= t^2 Var(Y - R X)}
  is the interval [(b - sqrt(b^2 - a c)) / a, (b + sqrt(b^2 - a c)) / a] with
      a = X^2 - t^2 v_xx,  b = X Y - t^2 v_xy,  c = Y^2 - t^2 v_yy
  when a > 0 (X significantly above 0); the low bound is clipped at 0 (costs are not negative).
  When a <= 0 the set is unbounded: low = 0, high = NULL (ratio_ci_reason says why). Fieller keeps its
  coverage where the delta method does not (few successes: X near 0); the project's coverage study
  checks it (tests/stats/test_ratio_coverage.py). NULL when C < 2 or X <= 0. `crit`: an expression
  already holding t(C-1, 0.975) (a column computed once), else it is computed inline.
-#}
{% macro ratio_fieller_bound(y, x, v_yy, v_xx, v_xy, n_clusters, side, crit=none) -%}
    {%- set t2 = 'power(' ~ (crit or t_quantile('(' ~ n_clusters ~ ') - 1')) ~ ', 2)' -%}
    {%- set a = '(cast((' ~ x ~ ') as double) * (' ~ x ~ ') - ' ~ t2 ~ ' * (' ~ v_xx ~ '))' -%}
    {%- set b = '(cast((' ~ x ~ ') as double) * (' ~ y ~ ') - ' ~ t2 ~ ' * (' ~ v_xy ~ '))' -%}
    {%- set c = '(cast((' ~ y ~ ') as double) * (' ~ y ~ ') - ' ~ t2 ~ ' * (' ~ v_yy ~ '))' -%}
    {%- set root = 'sqrt(greatest(cast(0 as double), ' ~ b ~ ' * ' ~ b ~ ' - ' ~ a ~ ' * ' ~ c ~ '))' -%}
    (case
        when ({{ n_clusters }}) is null or ({{ n_clusters }}) < 2 or ({{ x }}) is null or ({{ x }}) <= 0
            or ({{ y }}) is null or ({{ v_xx }}) is null
            then cast(null as double)
    {%- if side == 'low' %}
        when {{ a }} <= 0 then cast(0 as double)
        else greatest(cast(0 as double), ({{ b }} - {{ root }}) / {{ a }})
    {%- else %}
        when {{ a }} <= 0 then cast(null as double)
        else ({{ b }} + {{ root }}) / {{ a }}
    {%- endif %}
    end)
{%- endmacro %}

{#-
  Why a ratio's Fieller interval (or its upper bound) is NULL: 'no successes', 'fewer than 2 clusters',
  or 'successes not distinguishable from 0 (upper bound unbounded)'. NULL when the interval is bounded.
-#}
{% macro ratio_ci_reason(y, x, v_xx, n_clusters, crit=none) -%}
    {%- set t = crit or t_quantile('(' ~ n_clusters ~ ') - 1') -%}
    (case
        when ({{ y }}) is null then 'no observations'
        when ({{ x }}) is null or ({{ x }}) <= 0 then 'no successes'
        when ({{ n_clusters }}) is null or ({{ n_clusters }}) < 2 then 'fewer than 2 clusters'
        when cast(({{ x }}) as double) * ({{ x }}) - power({{ t }}, 2) * ({{ v_xx }}) <= 0
            then 'successes not distinguishable from 0 (upper bound unbounded)'
    end)
{%- endmacro %}
