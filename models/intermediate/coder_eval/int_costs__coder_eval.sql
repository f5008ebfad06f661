{#-
  coder-eval rows for marts.fct_costs_repriced: one row per replicate with token usage (the agent's
  four buckets, priced at the replicate's started_at against its model_used), plus one row per
  judge criterion result with token usage (the judge's buckets; its model from the task's declared
  criterion is not in the result, so model_raw is the judge model declared in task_config when found).
  actual_cost_usd: per-request billing captured proxy-side (provider_call_costs), else NULL.
-#}
with replicates as (
    select * from {{ ref('fct_ce_replicates') }}
),

judge_usage as (
    select * from {{ ref('int_ce__judge_usage') }}
)

select
    'coder_eval' as source_family,
    r.replicate_key as record_key,
    r.model as model_raw,
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
    r.task_id
from replicates as r
where r.uncached_input_tokens is not null
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
    j.task_id
from judge_usage as j
