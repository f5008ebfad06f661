{#-
  One row per (inspect_ai log, sample, epoch) (fct_inspect_samples is this model under a contract): what happened to the sample and what it cost. Its scores as the
  sample holds them (scores_json: scorer -> value, letters, numbers, booleans and dicts as written), whether it
  errored or hit a limit, the evaluated model's tokens and the cost of the evaluated model, of the grader and of
  anything else, each repriced against the rate card at the sample's start (int_costs__repriced), never the
  grader's spend counted as the model's (R33). A cost is NULL unless every record behind it is priced.
-#}
with samples as (
    select * from {{ ref('stg_inspect__samples') }}
),

logs as (
    select * from {{ ref('int_inspect__logs') }}
),

scores as (
    select
        sc.source_file,
        sc.sample_id,
        sc.epoch,
        count(*) as n_scores,
        '{' || {{ ordered_string_agg("'\"' || sc.scorer || '\":' || coalesce(sc.value_json, 'null')", ', ', 'sc.scorer_position') }} || '}'
            as scores_json
    from {{ ref('stg_inspect__sample_scores') }} as sc
    group by sc.source_file, sc.sample_id, sc.epoch
),

agent_tokens as (
    select
        sp.source_file,
        sp.sample_id,
        sp.epoch,
        sum(sp.uncached_input_tokens) as uncached_input_tokens,
        sum(sp.cache_read_tokens) as cache_read_tokens,
        sum(sp.cache_write_tokens) as cache_write_tokens,
        sum(sp.output_tokens) as output_tokens,
        sum(sp.total_tokens) as total_tokens
    from {{ ref('int_inspect__sample_spend') }} as sp
    where sp.spend_kind = 'agent'
    group by sp.source_file, sp.sample_id, sp.epoch
),

costs as (
    select
        c.unit_key,
        count(*) as n_records,
        sum(case when c.spend_kind = 'agent' and c.cost_usd_best is null then 1 else 0 end) as n_agent_unpriced,
        sum(case when c.spend_kind = 'agent' then c.cost_usd_best end) as agent_cost_usd,
        sum(case when c.spend_kind = 'judge' then 1 else 0 end) as n_judge_records,
        sum(case when c.spend_kind = 'judge' and c.cost_usd_best is null then 1 else 0 end) as n_judge_unpriced,
        sum(case when c.spend_kind = 'judge' then c.cost_usd_best end) as judge_cost_usd,
        sum(case when c.spend_kind not in ('agent', 'judge') then 1 else 0 end) as n_other_records,
        sum(case when c.spend_kind not in ('agent', 'judge') and c.cost_usd_best is null then 1 else 0 end)
            as n_other_unpriced,
        sum(case when c.spend_kind not in ('agent', 'judge') then c.cost_usd_best end) as other_cost_usd
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
    s.started_at,
    s.total_time_s,
    s.working_time_s,
    cast(t.uncached_input_tokens as bigint) as agent_uncached_input_tokens,
    cast(t.cache_read_tokens as bigint) as agent_cache_read_tokens,
    cast(t.cache_write_tokens as bigint) as agent_cache_write_tokens,
    cast(t.output_tokens as bigint) as agent_output_tokens,
    cast(t.total_tokens as bigint) as agent_total_tokens,
    -- a sample with no usage recorded has an unknown cost, never 0
    c.n_records is not null as has_usage,
    case when c.n_records > 0 and c.n_agent_unpriced = 0 then coalesce(c.agent_cost_usd, 0.0) end as agent_cost_usd,
    case when c.n_records > 0 and c.n_judge_unpriced = 0 then coalesce(c.judge_cost_usd, 0.0) end as judge_cost_usd,
    case when c.n_records > 0 and c.n_other_unpriced = 0 then coalesce(c.other_cost_usd, 0.0) end as other_cost_usd,
    coalesce(c.n_records > 0 and c.n_agent_unpriced + c.n_judge_unpriced + c.n_other_unpriced = 0, false) as cost_complete,
    s.has_nonfinite_literals,
    s.load_id
from samples as s
inner join logs as l on s.source_file = l.source_file
left join scores as sc
    on s.source_file = sc.source_file and s.sample_id = sc.sample_id and s.epoch = sc.epoch
left join agent_tokens as t
    on s.source_file = t.source_file and s.sample_id = t.sample_id and s.epoch = t.epoch
left join costs as c
    on c.unit_key = s.source_file || '|' || s.sample_id || '|' || cast(s.epoch as {{ dbt.type_string() }})
