{#-
  One row per (inspect_ai log, sample, epoch) (fct_inspect_samples is this model under a contract): what happened to the sample and what it cost. Its scores as the
  sample holds them (scores_json: scorer -> value, letters, numbers, booleans and dicts as written), whether it
  errored or hit a limit, the evaluated model's tokens and the cost of the evaluated model, of the grader and of
  anything else, each repriced against the rate card at the sample's start (int_costs__repriced), never the
  grader's spend counted as the model's (R33). A cost is NULL unless every record behind it is priced.
  A run another log recorded first (a retry's log carries the failed log's finished samples over) is
  is_carried_over, from carried_over_from, with that run's tokens and cost: sum over the rows that are not
  carried over to count each run once.
-#}
{%- set agent_token_columns = ['uncached_input_tokens', 'cache_read_tokens', 'cache_write_tokens', 'output_tokens', 'total_tokens'] %}
{#- each spend kind's cost, and the predicate on int_costs__repriced.spend_kind that selects its records #}
{%- set spend_kinds = {'agent': "= 'agent'", 'judge': "= 'judge'", 'other': "not in ('agent', 'judge')"} %}

with samples as (select * from {{ ref('stg_inspect__samples') }}),

logs as (select * from {{ ref('int_inspect__logs') }}),

executions as (select * from {{ ref('int_inspect__sample_executions') }}),

scores as (
    select
        {{ qualified('sc', inspect_sample_grain()) }},
        count(*) as n_scores,
        '{' || {{ ordered_string_agg("'\"' || sc.scorer || '\":' || coalesce(sc.value_json, 'null')", ', ', 'sc.scorer_position') }} || '}'
            as scores_json
    from {{ ref('stg_inspect__sample_scores') }} as sc
    group by {{ qualified('sc', inspect_sample_grain()) }}
),

agent_tokens as (
    select
        {{ qualified('sp', inspect_sample_grain()) }},
        {%- for c in agent_token_columns %}
            sum(sp.{{ c }}) as {{ c }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from {{ ref('int_inspect__sample_spend') }} as sp
    where sp.spend_kind = 'agent'
    group by {{ qualified('sp', inspect_sample_grain()) }}
),

costs as (
    select
        c.unit_key,
        {%- for kind, is_kind in spend_kinds.items() %}
            sum(case when c.spend_kind {{ is_kind }} and c.cost_usd_best is null then 1 else 0 end) as n_{{ kind }}_unpriced,
            sum(case when c.spend_kind {{ is_kind }} then c.cost_usd_best end) as {{ kind }}_cost_usd,
        {%- endfor %}
        count(*) as n_records
    from {{ ref('int_costs__repriced') }} as c
    where c.source_family = 'inspect'
    group by c.unit_key
)

select
    s.source_file,
    s.sample_id,
    s.sample_id_is_int,
    s.epoch,
    l.status,
    l.task,
    l.model_normalised as model,
    l.model as model_raw,
    s.target,
    s.error_message is not null as is_errored,
    s.error_message,
    s.limit_type is not null as is_limited,
    s.limit_type,
    s.limit_value,
    cast(coalesce(sc.n_scores, 0) as bigint) as n_scores,
    sc.scores_json,
    s.sample_uuid,
    coalesce(e.is_carried_over, false) as is_carried_over,
    e.carried_over_from,
    s.started_at,
    s.total_time_s,
    s.working_time_s,
    {%- for c in agent_token_columns %}
        cast(t.{{ c }} as bigint) as agent_{{ c }},
    {%- endfor %}
    -- a sample with no usage recorded has an unknown cost, never 0
    c.n_records is not null as has_usage,
    {%- for kind in spend_kinds %}
        case when c.n_records > 0 and c.n_{{ kind }}_unpriced = 0 then coalesce(c.{{ kind }}_cost_usd, 0.0) end as {{ kind }}_cost_usd,
    {%- endfor %}
    coalesce(c.n_records > 0 and c.n_agent_unpriced + c.n_judge_unpriced + c.n_other_unpriced = 0, false) as cost_complete,
    s.has_nonfinite_literals,
    s.load_id
from samples as s
inner join logs as l on s.source_file = l.source_file
left join scores as sc on {{ same_keys('s', 'sc', inspect_sample_grain()) }}
left join agent_tokens as t on {{ same_keys('s', 't', inspect_sample_grain()) }}
left join executions as e on {{ same_keys('s', 'e', inspect_sample_grain()) }}
-- a run carried over from another log has its cost there (int_costs__inspect costs each run once)
left join costs as c on e.run_unit_key = c.unit_key
