{#-
  One row per (log, sample, epoch, spend kind, role, model): who spent the tokens of a sample, counted once.
  inspect_ai records a sample's usage twice over: `model_usage` per model (every call to it) and `role_usage` per
  model role (the calls made through a role such as grader, counted again under the role's model). So:
  - each role in role_usage is one row with its role and the model the eval binds to it: spend_kind 'judge' for
    inspect's grader role (model_graded_* scorers), 'role' for any other;
  - each model in model_usage keeps what its roles did not spend (the residual): spend_kind 'agent' (the model
    under evaluation, as in every family) for the log's model, 'unattributed' for any other model (a call made
    outside a declared role); a residual of no tokens at all is no row;
  - a log that declares roles but records no role_usage (inspect_ai before 0.3.184) cannot separate a role
    bound to the evaluated model from it: that residual is 'agent_and_roles', never 'agent'.
  The grader's spend is never the evaluated model's (R33). Tokens follow evalhouse's convention: uncached input
  is input_tokens, less the cache reads where this inspect_ai version and provider counted them in it
  (inspect_token_conventions); total_tokens and total_cost as the log states them.
  A sample run that another log recorded first (is_carried_over: a retry's log carries the failed log's finished
  samples over, int_inspect__sample_executions) keeps its rows here, flagged; its cost is counted where it ran.
-#}
{%- set token_buckets = ['input_tokens', 'output_tokens', 'total_tokens', 'cache_read_tokens', 'cache_write_tokens'] %}
{%- set usage_columns = token_buckets + ['reasoning_tokens', 'total_cost_usd_logged'] %}

with usage as (select * from {{ ref('stg_inspect__sample_usage') }}),

logs as (select * from {{ ref('int_inspect__logs') }}),

samples as (select * from {{ ref('stg_inspect__samples') }}),

conventions as (select * from {{ ref('inspect_token_conventions') }}),

executions as (select * from {{ ref('int_inspect__sample_executions') }}),

declared_roles as (
    select
        r.source_file,
        r.role,
        r.role_model,
        row_number() over (
            partition by r.source_file, r.role order by case when r.member_kind = 'header' then 0 else 1 end
        ) as pick
    from {{ ref('stg_inspect__model_roles') }} as r
),

roles as (
    select
        {{ qualified('u', inspect_sample_grain()) }},
        u.usage_key as role,
        case when u.usage_key = 'grader' then 'judge' else 'role' end as spend_kind,
        d.role_model as model_raw,
        {%- for c in usage_columns %}
            u.{{ c }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from usage as u
    left join declared_roles as d
        on u.source_file = d.source_file and u.usage_key = d.role and d.pick = 1
    where u.usage_scope = 'role'
),

role_totals as (
    select
        {{ qualified('r', inspect_sample_grain()) }},
        r.model_raw,
        {%- for c in usage_columns %}
            sum(r.{{ c }}) as {{ c }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from roles as r
    group by {{ qualified('r', inspect_sample_grain()) }}, r.model_raw
),

sample_has_roles as (
    select distinct
        {{ qualified('u', inspect_sample_grain()) }}
    from usage as u
    where u.usage_scope = 'role'
),

log_role_models as (
    select distinct
        d.source_file,
        d.role_model
    from declared_roles as d
    where d.pick = 1
),

residuals as (
    select
        {{ qualified('u', inspect_sample_grain()) }},
        cast(null as {{ dbt.type_string() }}) as role,
        case
            when u.usage_key <> l.model then 'unattributed'
            when h.source_file is null and lm.source_file is not null then 'agent_and_roles'
            else 'agent'
        end as spend_kind,
        u.usage_key as model_raw,
        -- what the model's calls spent outside its roles
        {%- for c in usage_columns %}
            u.{{ c }} - coalesce(t.{{ c }}, 0) as {{ c }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from usage as u
    inner join logs as l on u.source_file = l.source_file
    left join role_totals as t
        on
            {{ same_keys('u', 't', inspect_sample_grain()) }}
            and u.usage_key = t.model_raw
    left join sample_has_roles as h
        on {{ same_keys('u', 'h', inspect_sample_grain()) }}
    left join log_role_models as lm
        on u.source_file = lm.source_file and u.usage_key = lm.role_model
    where u.usage_scope = 'model'
),

spend as (
    select * from roles
    union all
    select * from residuals as r
    -- a residual of no tokens at all is no row
    where
        {%- for c in token_buckets %}
            {{ 'or ' if not loop.first }}coalesce(r.{{ c }}, 0) <> 0
        {%- endfor %}
),

conventioned as (
    select
        s.*,
        l.model as log_model,
        l.task,
        l.status,
        l.inspect_version,
        coalesce(smp.started_at, l.created_at) as priced_at,
        e.unit_key,
        e.is_carried_over,
        coalesce(
            {{ inspect_version_key('l.inspect_version') }} < {{ inspect_version_key('c.includes_cache_read_before') }},
            false
        ) as input_includes_cache_read,
        l.load_id
    from spend as s
    inner join logs as l on s.source_file = l.source_file
    left join samples as smp
        on {{ same_keys('s', 'smp', inspect_sample_grain()) }}
    inner join executions as e
        on {{ same_keys('s', 'e', inspect_sample_grain()) }}
    left join conventions as c
        on {{ split_part_text('s.model_raw', '/', 1) }} = c.provider
),

uncached as (
    select
        c.*,
        case
            when c.input_includes_cache_read then c.input_tokens - coalesce(c.cache_read_tokens, 0)
            else c.input_tokens
        end as uncached_input_tokens
    from conventioned as c
),

-- what total_tokens leaves for the cache bucket(s) inspect_ai omitted (None: not reported)
rested as (
    select
        u.*,
        u.total_tokens - u.uncached_input_tokens - u.output_tokens
        - coalesce(u.cache_read_tokens, 0) - coalesce(u.cache_write_tokens, 0) as tokens_unaccounted
    from uncached as u
)

select
    -- the record's key in fct_costs_repriced, and the (log, sample, epoch) its cost rolls up to
    r.unit_key || '|' || r.spend_kind || '|' || coalesce(r.role, '') || '|' || coalesce(r.model_raw, '') as record_key,
    r.unit_key,
    {{ qualified('r', inspect_sample_grain()) }},
    r.spend_kind,
    r.role,
    r.model_raw,
    r.log_model,
    r.task,
    r.status,
    r.inspect_version,
    r.input_includes_cache_read,
    cast(r.input_tokens as bigint) as input_tokens_stated,
    cast(r.uncached_input_tokens as bigint) as uncached_input_tokens,
    cast(r.cache_read_tokens as bigint) as cache_read_tokens_stated,
    cast(r.cache_write_tokens as bigint) as cache_write_tokens_stated,
    -- an omitted cache bucket is known only where total_tokens pins it (total = input + output + cache reads and
    -- writes): 0 when nothing is unaccounted, the remainder when the other bucket is stated; else unknown
    cast(case
        when r.cache_read_tokens is not null then r.cache_read_tokens
        when r.tokens_unaccounted = 0 then 0
        when r.cache_write_tokens is not null and r.tokens_unaccounted > 0 then r.tokens_unaccounted
    end as bigint) as cache_read_tokens,
    cast(case
        when r.cache_write_tokens is not null then r.cache_write_tokens
        when r.tokens_unaccounted = 0 then 0
        when r.cache_read_tokens is not null and r.tokens_unaccounted > 0 then r.tokens_unaccounted
    end as bigint) as cache_write_tokens,
    cast(r.output_tokens as bigint) as output_tokens,
    cast(r.reasoning_tokens as bigint) as reasoning_tokens,
    cast(r.total_tokens as bigint) as total_tokens,
    cast(r.total_cost_usd_logged as double) as total_cost_usd_logged,
    r.priced_at,
    r.is_carried_over,
    r.load_id
from rested as r
