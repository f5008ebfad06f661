{#-
  Cost interface rows for the chat x coder matrix: one row per turn. prompt_tokens INCLUDES cached_tokens, so
  the uncached slice is max(0, prompt - cached); the matrix logs have no cache-write bucket (0). The model is
  the one that answered the turn (chat model for chat turns, coder model for coder turns; record fields win).
-#}
select
    'matrix' as source_family,
    t.turn_key as record_key,
    t.model as model_raw,
    t.stamp as priced_at,
    greatest(t.prompt_tokens - t.cached_tokens, 0) as uncached_input_tokens,
    t.cached_tokens as cache_read_tokens,
    cast(case when t.prompt_tokens is not null then 0 end as bigint) as cache_write_tokens,
    t.completion_tokens as output_tokens,
    t.cost_usd as cost_usd_logged,
    cast(null as double) as actual_cost_usd,
    t.source_file,
    t.source_line,
    t.load_id,
    t.stamp_is_naive,
    t.cell as run_id,
    cast(null as {{ dbt.type_string() }}) as variant_id,
    t.scenario_id as task_id,
    'agent' as spend_kind,
    t.turn_key as unit_key,
    false as is_no_model_call
from {{ ref('int_matrix__turns') }} as t
