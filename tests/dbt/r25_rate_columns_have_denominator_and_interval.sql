-- R25 (catalog): every rate or mean column of a mart (see macros/tests/r25_rate_columns.sql for
-- what counts as one) sits in a table with a denominator column and has its own interval columns.
-- The arm means of a paired comparison are covered by the interval on the paired difference.
-- A mean (not a binary rate) needs a standard-error column: its interval comes from the cluster-
-- robust SE, not from Wilson. Known open gaps (r25_open_gaps() in the macro file; dbt var
-- r25_open_gaps overrides) are skipped. One failing row per (table, column, problem). The depends_on list holds every aggregate mart
-- (tests/test_rule_coverage.py checks that it stays complete), so the test runs after them.
-- depends_on: {{ ref('big_awareness_rates') }}
-- depends_on: {{ ref('big_ablation_pairs') }}
-- depends_on: {{ ref('big_rates') }}
-- depends_on: {{ ref('inspect_metrics') }}
-- depends_on: {{ ref('inspect_model_pairs') }}
-- depends_on: {{ ref('inspect_spend') }}
-- depends_on: {{ ref('coder_eval_criterion_stats') }}
-- depends_on: {{ ref('coder_eval_run_summaries') }}
-- depends_on: {{ ref('coder_eval_suite_results') }}
-- depends_on: {{ ref('coder_eval_variant_comparisons') }}
-- depends_on: {{ ref('coder_eval_variant_rates') }}
-- depends_on: {{ ref('costs_repriced_totals') }}
-- depends_on: {{ ref('layered_failure_attribution') }}
-- depends_on: {{ ref('layered_layer_costs') }}
-- depends_on: {{ ref('layered_router_accuracy') }}
-- depends_on: {{ ref('matrix_pass_rates') }}
-- depends_on: {{ ref('big_model_pairs') }}
-- depends_on: {{ ref('coder_eval_pass_at_k') }}
-- depends_on: {{ ref('layered_pipeline_pass_rates') }}
-- depends_on: {{ ref('layered_router_pairs') }}
-- depends_on: {{ ref('matrix_model_pairs') }}
-- depends_on: {{ ref('cost_quality_frontier') }}
{%- set rates = r25_rate_columns('marts') %}
{%- set problems = [] %}
{%- for r in rates if not r.open_gap %}
    {%- if r.denominators | length == 0 %}
        {%- do problems.append((r.table, r.column, 'no denominator column (n_*, *_graded, *_measured, *_total) in the table')) %}
    {%- endif %}
    {%- if r.lo is none and not r.paired_arm %}
        {%- do problems.append((r.table, r.column, 'no interval columns (<stem>_ci_low / <stem>_ci_high, or ci_low / ci_high)')) %}
    {%- endif %}
    {%- if r.lo is not none and r.is_mean and r.se is none and not r.paired_arm %}
        {%- do problems.append((r.table, r.column, 'a mean whose interval has no standard error column (<stem>_se): not computed at the cluster unit')) %}
    {%- endif %}
{%- endfor %}
{%- if problems | length == 0 %}
select
    cast(null as {{ dbt.type_string() }}) as table_name,
    cast(null as {{ dbt.type_string() }}) as column_name,
    cast(null as {{ dbt.type_string() }}) as problem
where false
{%- else %}
{%- for t, c, p in problems %}
select
    '{{ t }}' as table_name,
    '{{ c }}' as column_name,
    '{{ p }}' as problem
{% if not loop.last %}union all
{% endif %}
{%- endfor %}
{%- endif %}
