{#-
  coder-eval rows for marts.fct_costs_repriced, three kinds of spend per replicate:
  - the agent: one row per replicate (its four token buckets, priced at started_at against model_used).
    A replicate with no token usage, no logged agent cost, no captured provider call and cost_complete
    is a call that never happened (agentless, an ERROR before the agent ran, BUILD_FAILED; an agentless
    `none` agent even when it timed out): a known 0
    (is_no_model_call), never an unknown. Without token usage otherwise it stays unpriced.
  - the simulator (dialog mode): one row per replicate with simulation telemetry, priced like judge
    spend from simulator_input_tokens / simulator_output_tokens (the telemetry has no cache buckets:
    coder-eval prices them as calculate_cost(simulator_model, input, output)) against simulator_model.
  - the judge: one row per judge criterion result with token usage (the judge model is the one declared
    in task_config when found).
  actual_cost_usd: per-request billing captured proxy-side (provider_call_costs), else NULL.
-#}
with replicates as (select * from {{ ref('int_coder_eval__replicates') }}),

judge_usage as (select * from {{ ref('int_coder_eval__judge_usage') }})

select
    'coder_eval' as source_family,
    r.replicate_key as record_key,
    r.model_raw,
    r.started_at as priced_at,
    r.uncached_input_tokens,
    r.cache_read_input_tokens as cache_read_tokens,
    r.cache_creation_input_tokens as cache_write_tokens,
    r.output_tokens,
    r.agent_cost_usd as cost_usd_logged,
    case when r.n_provider_calls > 0 then r.provider_actual_cost_usd end as actual_cost_usd,
    r.source_file,
    cast(null as bigint) as source_line,
    r.load_id,
    r.started_at_is_naive as stamp_is_naive,
    r.run_id,
    r.variant_id,
    r.task_id,
    'agent' as spend_kind,
    r.replicate_key as unit_key,
    coalesce(
        r.uncached_input_tokens is null
        and r.output_tokens is null
        and r.agent_cost_usd is null
        and r.n_provider_calls = 0
        -- coder-eval marks every TIMEOUT incomplete, even one of an agent that calls no model
        and (r.cost_complete or r.agent_type = 'none'),
        false
    ) as is_no_model_call
from replicates as r
union all
select
    'coder_eval' as source_family,
    r.replicate_key || '|simulator' as record_key,
    r.simulator_model as model_raw,
    r.started_at as priced_at,
    r.simulator_input_tokens as uncached_input_tokens,
    case when r.simulator_input_tokens is not null then cast(0 as bigint) end as cache_read_tokens,
    case when r.simulator_input_tokens is not null then cast(0 as bigint) end as cache_write_tokens,
    r.simulator_output_tokens as output_tokens,
    r.simulator_cost_usd as cost_usd_logged,
    cast(null as double) as actual_cost_usd,
    r.source_file,
    cast(null as bigint) as source_line,
    r.load_id,
    r.started_at_is_naive as stamp_is_naive,
    r.run_id,
    r.variant_id,
    r.task_id,
    'simulator' as spend_kind,
    r.replicate_key as unit_key,
    false as is_no_model_call
from replicates as r
where r.simulator_input_tokens is not null or r.simulator_output_tokens is not null or r.simulator_cost_usd is not null
union all
select
    'coder_eval' as source_family,
    j.record_key,
    j.judge_model as model_raw,
    j.priced_at,
    j.uncached_input_tokens,
    j.cache_read_input_tokens as cache_read_tokens,
    j.cache_creation_input_tokens as cache_write_tokens,
    j.output_tokens,
    j.cost_usd as cost_usd_logged,
    cast(null as double) as actual_cost_usd,
    j.source_file,
    cast(null as bigint) as source_line,
    j.load_id,
    j.priced_at_is_naive as stamp_is_naive,
    j.run_id,
    j.variant_id,
    j.task_id,
    'judge' as spend_kind,
    j.replicate_key as unit_key,
    false as is_no_model_call
from judge_usage as j
