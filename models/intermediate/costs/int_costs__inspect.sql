{#-
  inspect_ai rows for marts.fct_costs_repriced: one row per (log, sample, epoch, spend role, model) of
  int_inspect__sample_spend, priced at the sample's start against the model the spend went to: the evaluated
  model's own spend (spend_kind 'agent'), the grader's ('judge'), any other model role's ('role'), calls outside
  any role ('unattributed'), never one counted twice. cost_usd_logged is inspect_ai's own total_cost where it computed
  one (a model cost config), else NULL. unit_key is the (log, sample, epoch). A sample run carried over from the
  log that recorded it first (a retry's log) is not costed again: each run's spend is one set of records, in the
  log where it ran (int_inspect__sample_executions).
-#}
with spend as (select * from {{ ref('int_inspect__sample_spend') }})

select
    'inspect' as source_family,
    s.record_key,
    s.model_raw,
    s.priced_at,
    s.uncached_input_tokens,
    s.cache_read_tokens,
    s.cache_write_tokens,
    s.output_tokens,
    s.total_cost_usd_logged as cost_usd_logged,
    cast(null as double) as actual_cost_usd,
    s.source_file,
    cast(null as bigint) as source_line,
    s.load_id,
    false as stamp_is_naive,
    cast(null as {{ dbt.type_string() }}) as run_id,
    cast(null as {{ dbt.type_string() }}) as variant_id,
    s.task as task_id,
    s.spend_kind,
    s.unit_key,
    false as is_no_model_call
from spend as s
where not s.is_carried_over
