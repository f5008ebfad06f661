{#-
  Tokens and cost per (inspect_ai log, spend kind, role, model), each token counted once: the evaluated model's
  own spend (agent), the grader's (judge), other roles' and unattributed calls (int_inspect__sample_spend), summed
  over the log's samples and epochs and repriced against the rate card at each sample's start
  (int_costs__repriced). The cost is NULL unless every record is priced (cost_usd_priced is the part that is).
  Never pooled across logs, statuses or spend kinds; the grader's spend is never the model's (R33).
-#}
with spend as (select * from {{ ref('int_inspect__sample_spend') }}),

repriced as (
    select * from {{ ref('int_costs__repriced') }}
    where source_family = 'inspect'
),

records as (
    select
        s.*,
        r.model,
        r.cost_usd_best,
        r.cost_basis,
        r.unpriced_reason,
        r.price_table_date,
        r.cost_usd_logged
    from spend as s
    inner join repriced as r on s.record_key = r.record_key
)

select
    r.source_file,
    r.status,
    r.task,
    r.log_model,
    r.spend_kind,
    r.role,
    r.model_raw,
    max(r.model) as model,
    max(r.inspect_version) as inspect_version,
    bool_or(r.input_includes_cache_read) as input_includes_cache_read,
    cast(count(*) as bigint) as n_sample_epochs,
    cast(sum(r.uncached_input_tokens) as bigint) as uncached_input_tokens,
    cast(sum(r.cache_read_tokens) as bigint) as cache_read_tokens,
    cast(sum(r.cache_write_tokens) as bigint) as cache_write_tokens,
    cast(sum(r.output_tokens) as bigint) as output_tokens,
    cast(sum(r.total_tokens) as bigint) as total_tokens,
    cast(sum(case when r.cost_usd_best is null then 1 else 0 end) as bigint) as n_unpriced,
    max(r.unpriced_reason) as unpriced_reason,
    case when count(r.cost_usd_best) = count(*) then sum(r.cost_usd_best) end as cost_usd,
    sum(r.cost_usd_best) as cost_usd_priced,
    sum(r.cost_usd_logged) as cost_usd_logged,
    max(r.price_table_date) as price_table_date
from records as r
group by r.source_file, r.status, r.task, r.log_model, r.spend_kind, r.role, r.model_raw
