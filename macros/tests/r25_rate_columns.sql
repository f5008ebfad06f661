{#-
  R25 (statistics): which mart columns are rates / means, and which denominator, interval and
  standard-error columns belong to each. Shared by the singular tests
  tests/dbt/r25_rate_columns_have_denominator_and_interval.sql (catalog) and
  tests/dbt/r25_intervals_present_when_estimable.sql (per row).

  Reads the columns of `schema` (schema_columns) at execution time (empty list while parsing) and
  returns one dict per rate / mean column:
    table, column, lo, hi (interval columns or none), se (standard-error column or none),
    n_clusters (cluster-count column or none), denominators (list), paired_arm (bool),
    reason (<stem>_ci_reason / ci_reason: why an interval is NULL, or none), bounded (false for
    costs, latencies and token counts), is_difference (a paired difference, range [-1, 1]),
    is_mean (bool: a mean / average, whose interval must come from a standard error),
    open_gap (the reason, when the column is a known open gap listed in r25_open_gaps()).

  Naming conventions recognised (see models/marts/**):
  - a rate / mean is a numeric (floating) column whose name has a word pass_rate, rate, mean,
    accuracy, average, share, proportion or fraction (change_mean, pass_rate, accuracy,
    average_score, mean_difference, task_pass_rate, error_share_recomputed ...), and any other
    floating column that has an interval of its own (<column>_ci_low; inspect_metrics'
    value_recomputed beside value_ci_low, cost_per_success);
  - its interval is <stem>_ci_low / <stem>_ci_high, stem = the column name, or the name without a
    leading mean_ / trailing _mean / trailing _recomputed (change_mean -> change_ci_low, mean_difference ->
    difference_ci_low, value_recomputed -> value_ci_low); the one rate column of a table without a <stem>_ci_low of its own may use
    plain ci_low / ci_high;
  - its standard error (clustered interval) is <stem>_se (se_clustered beside plain ci_low / ci_high);
    why its interval is NULL is <stem>_ci_reason (ci_reason); the cluster count is n_<stem>_clusters or
    n_clusters, and for a paired difference n_<base>_pairs or n_pairs;
  - a denominator is an integer column named n_* or holding a word graded, measured or total
    (n_turns, n_graded, tasks_graded_recomputed, rows_measured, change_assertions_total).
-#}
{% macro r25_rate_columns(schema='marts') %}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set re = modules.re -%}
    {#- tables only: the old-name views of models/marts/aliases repeat a mart checked under its own name -#}
    {%- set rows = schema_columns(schema, tables_only=true) -%}
    {%- set tables = {} -%}
    {%- for r in rows -%}
        {%- if r[0] not in tables -%}
            {%- do tables.update({r[0]: []}) -%}
        {%- endif -%}
        {%- do tables[r[0]].append((r[1], r[2])) -%}
    {%- endfor -%}
    {%- set rate_re = '(^|_)(pass_rate|rate|mean|accuracy|average|share|proportion|fraction|pass_at_k|pass_hat_k)(_|$)' -%}
    {#- not estimates themselves: interval bounds, standard errors, minimum detectable differences,
        correlations, p-values; and *_stored: what a log file claims (reconciled by R16 / R24, not an
        evalhouse estimate; the matching evalhouse figure sits beside it and is checked) -#}
    {%- set not_rate_re = '(_ci_low|_ci_high|_se|_mdd|_corr|_correlation|_stored|_p|_p_value|_p_holm|_p_bh)$|^(se|ci|p)_' -%}
    {%- set float_re = '^(DOUBLE|FLOAT|REAL|DECIMAL|NUMERIC)' -%}
    {%- set int_re = '^(BIGINT|INTEGER|HUGEINT|SMALLINT|TINYINT|UBIGINT|UINTEGER|INT)' -%}
    {%- set denominator_re = '^n_|(^|_)(graded|measured|total)(_|$)' -%}
    {%- set open_gaps = var('r25_open_gaps', r25_open_gaps()) -%}
    {%- set out = [] -%}
    {%- for table, cols in tables.items() -%}
        {#- excluded tables: fct_ / dim_ hold one row per record, whose shares (assertion_pass_share
            of one run) are that record's own measurement, not an estimate over a population;
            data_quality_findings and field_lineage hold no numbers. -#}
        {%- if not (table.startswith('fct_') or table.startswith('dim_')
                    or table in ['data_quality_findings', 'field_lineage']) -%}
            {%- set names = cols | map(attribute=0) | list -%}
            {%- set denominators = [] -%}
            {%- set rates = [] -%}
            {%- for name, dtype in cols -%}
                {%- if re.search(int_re, dtype) and re.search(denominator_re, name) -%}
                    {%- do denominators.append(name) -%}
                {%- elif re.search(float_re, dtype) and not re.search(not_rate_re, name)
                         and (re.search(rate_re, name) or (name ~ '_ci_low') in names
                              or (name.endswith('_recomputed') and (name[:-11] ~ '_ci_low') in names)) -%}
                    {%- do rates.append(name) -%}
                {%- endif -%}
            {%- endfor -%}
            {#- a paired comparison (A/B, ablation) carries its interval on the difference; the arm
                means beside it (change_mean_on / _off, mean_score_a / _b) are its components -#}
            {%- set ns = namespace(paired=false) -%}
            {%- for name in names -%}
                {%- if re.search('(^|_)(diff|difference)_ci_low$', name) -%}
                    {%- set ns.paired = true -%}
                {%- endif -%}
            {%- endfor -%}
            {%- set own = [] -%}
            {%- for c in rates -%}
                {%- if not (ns.paired and re.search('_(on|off|a|b)$', c)) -%}
                    {%- do own.append(c) -%}
                {%- endif -%}
            {%- endfor -%}
            {#- plain ci_low / ci_high belong to the one own rate that has no <stem>_ci_low of its own -#}
            {%- set stemless = [] -%}
            {%- for c in own -%}
                {%- set cand = [c, c[5:] if c.startswith('mean_') else c, c[:-5] if c.endswith('_mean') else c] -%}
                {%- set ns2 = namespace(has=false) -%}
                {%- for s in cand if (s ~ '_ci_low') in names -%}
                    {%- set ns2.has = true -%}
                {%- endfor -%}
                {%- if not ns2.has -%}
                    {%- do stemless.append(c) -%}
                {%- endif -%}
            {%- endfor -%}
            {%- for c in rates -%}
                {%- set stems = [c] -%}
                {%- if c.startswith('mean_') -%}
                    {%- do stems.append(c[5:]) -%}
                {%- endif -%}
                {%- if c.endswith('_mean') -%}
                    {%- do stems.append(c[:-5]) -%}
                {%- endif -%}
                {%- if c.endswith('_recomputed') -%}
                    {%- do stems.append(c[:-11]) -%}
                {%- endif -%}
                {%- set found = namespace(lo=none, hi=none, se=none, nc=none, reason=none) -%}
                {%- for s in stems -%}
                    {%- if found.lo is none and (s ~ '_ci_low') in names and (s ~ '_ci_high') in names -%}
                        {%- set found.lo = s ~ '_ci_low' -%}
                        {%- set found.hi = s ~ '_ci_high' -%}
                    {%- endif -%}
                    {%- if found.se is none and (s ~ '_se') in names -%}
                        {%- set found.se = s ~ '_se' -%}
                    {%- endif -%}
                {%- endfor -%}
                {%- set found.reason = none -%}
                {%- for s in stems -%}
                    {%- if found.reason is none and (s ~ '_ci_reason') in names -%}
                        {%- set found.reason = s ~ '_ci_reason' -%}
                    {%- endif -%}
                {%- endfor -%}
                {%- if found.lo is none and stemless | length == 1 and c in stemless
                       and 'ci_low' in names and 'ci_high' in names -%}
                    {%- set found.lo = 'ci_low' -%}
                    {%- set found.hi = 'ci_high' -%}
                    {%- if found.se is none and 'se_clustered' in names -%}
                        {%- set found.se = 'se_clustered' -%}
                    {%- endif -%}
                    {%- if found.reason is none and 'ci_reason' in names -%}
                        {%- set found.reason = 'ci_reason' -%}
                    {%- endif -%}
                {%- endif -%}
                {%- if found.se is not none -%}
                    {%- set stem = c if found.se == 'se_clustered' else found.se[:-3] -%}
                    {%- set base = stem[:-5] if stem.endswith('_diff') else stem -%}
                    {%- set candidates = ['n_' ~ stem ~ '_clusters', 'n_clusters'] -%}
                    {%- if stem.endswith('_diff') or stem == 'difference' -%}
                        {%- do candidates.extend(['n_' ~ base ~ '_pairs', 'n_pairs']) -%}
                    {%- endif -%}
                    {%- for cand in candidates -%}
                        {%- if found.nc is none and cand in names -%}
                            {%- set found.nc = cand -%}
                        {%- endif -%}
                    {%- endfor -%}
                {%- endif -%}
                {%- set key = table ~ '.' ~ c -%}
                {%- do out.append({
                    'table': table, 'column': c, 'lo': found.lo, 'hi': found.hi, 'se': found.se,
                    'n_clusters': found.nc, 'denominators': denominators, 'reason': found.reason,
                    'bounded': re.search('(cost|latency|usd|tokens|seconds)', c) is none,
                    'is_difference': re.search('(^|_)(diff|difference)(_|$)', c) is not none,
                    'paired_arm': c not in own,
                    'is_mean': re.search('(^|_)(mean|average)(_|$)', c) is not none,
                    'open_gap': open_gaps.get(key)}) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(out) }}
{% endmacro %}

{#-
  Known open R25 gaps: mart columns that report a rate / mean without an interval today, with the
  owner who must add one. The catalog test does not fail on them (so `evalhouse build` can still
  publish) but they are listed in docs/rules.md, and tests/rules/test_r25_intervals.py proves that
  (a) each one is still a real gap (remove it here once fixed) and (b) with the list emptied
  (`--vars '{r25_open_gaps: {}}'`) the catalog test fails on exactly these columns.
  Override with the dbt var r25_open_gaps ({} = enforce everything).
-#}
{% macro r25_open_gaps() %}
    {{ return({}) }}
{% endmacro %}
