-- R25 (per row): on every row of an aggregate mart, a rate or mean that is reported carries its
-- interval whenever the data allow one, and the interval contains it:
--   Wilson / no standard-error column: estimate not null (so n > 0) -> ci_low and ci_high not null;
--   clustered (a <stem>_se column): n_clusters >= 2 -> se not null; se not null -> interval not null, unless
--   <stem>_ci_reason says why (no spread on a score whose range the logs do not state);
--   a NULL interval on a row with an estimate names its reason (<stem>_ci_reason) where the mart has one;
--   every non-null interval satisfies ci_low <= estimate <= ci_high (1e-9 slack);
--   no interval is zero-width around an estimate strictly inside its range ((0, 1), (-1, 1) for a
--   paired difference; costs and latencies are unbounded and exempt).
-- Columns are discovered from the catalog by macros/tests/r25_rate_columns.sql.
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
{%- set checks = [] %}
{%- for r in rates if r.lo is not none %}
    {%- set no_reason = '' if r.reason is none else ' and ' ~ r.reason ~ ' is null' %}
    {%- if r.se is none %}
        {%- do checks.append((r, 'wilson interval null on a row with an estimate (n > 0)',
            r.column ~ ' is not null and (' ~ r.lo ~ ' is null or ' ~ r.hi ~ ' is null)' ~ no_reason)) %}
    {%- else %}
        {%- do checks.append((r, 'clustered interval null while the standard error is known',
            r.column ~ ' is not null and ' ~ r.se ~ ' is not null and (' ~ r.lo ~ ' is null or ' ~ r.hi ~ ' is null)'
            ~ no_reason)) %}
        {%- if r.n_clusters is not none %}
            {%- do checks.append((r, 'standard error null with ' ~ r.n_clusters ~ ' >= 2',
                r.column ~ ' is not null and ' ~ r.n_clusters ~ ' >= 2 and ' ~ r.se ~ ' is null')) %}
        {%- endif %}
        {%- if r.reason is not none %}
            {%- do checks.append((r, 'interval null without a reason in ' ~ r.reason,
                r.column ~ ' is not null and (' ~ r.lo ~ ' is null or ' ~ r.hi ~ ' is null)' ~ no_reason)) %}
        {%- endif %}
    {%- endif %}
    {%- do checks.append((r, 'interval does not contain the estimate',
        r.lo ~ ' is not null and ' ~ r.hi ~ ' is not null and ' ~ r.column ~ ' is not null and not ('
        ~ r.lo ~ ' <= ' ~ r.column ~ ' + 1e-9 and ' ~ r.column ~ ' <= ' ~ r.hi ~ ' + 1e-9)')) %}
    {%- if r.bounded %}
        {%- set floor = '-1' if r.is_difference else '0' %}
        {%- do checks.append((r, 'zero-width interval around an estimate strictly inside its range',
            r.lo ~ ' is not null and ' ~ r.hi ~ ' - ' ~ r.lo ~ ' <= 1e-12 and ' ~ r.column ~ ' > ' ~ floor
            ~ ' and ' ~ r.column ~ ' < 1')) %}
    {%- endif %}
{%- endfor %}
{%- if checks | length == 0 %}
select
    cast(null as {{ dbt.type_string() }}) as table_name,
    cast(null as {{ dbt.type_string() }}) as column_name,
    cast(null as {{ dbt.type_string() }}) as problem,
    cast(null as {{ dbt.type_string() }}) as estimate,
    cast(null as {{ dbt.type_string() }}) as ci_low,
    cast(null as {{ dbt.type_string() }}) as ci_high
where false
{%- else %}
{%- for r, p, cond in checks %}
select
    '{{ r.table }}' as table_name,
    '{{ r.column }}' as column_name,
    '{{ p }}' as problem,
    cast({{ r.column }} as {{ dbt.type_string() }}) as estimate,
    cast({{ r.lo }} as {{ dbt.type_string() }}) as ci_low,
    cast({{ r.hi }} as {{ dbt.type_string() }}) as ci_high
from {{ api.Relation.create(database=(target.database or none), schema='marts', identifier=r.table) }}
where {{ cond }}
{% if not loop.last %}union all
{% endif %}
{%- endfor %}
{%- endif %}
