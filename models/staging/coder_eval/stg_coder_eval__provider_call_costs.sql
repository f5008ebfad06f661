with iterations as (
    {{ ce_iterations_select(source('coder_eval', 'ce_task_docs')) }}
)

select
    {{ ce_replicate_identity('i') }},
    i.iteration_index,
    p.position as call_index,
    {{ json_text('p.value', '$.call_id') }} as call_id,
    {{ ce_typed('p.value', '$.cost_usd', 'double') }} as actual_cost_usd,
    {{ ce_typed('p.value', '$.input_tokens', 'bigint') }} as input_tokens_incl_cached,
    {{ ce_typed('p.value', '$.cache_read_tokens', 'bigint') }} as cache_read_tokens,
    {{ ce_typed('p.value', '$.cache_write_tokens', 'bigint') }} as cache_write_tokens,
    {{ ce_typed('p.value', '$.output_tokens', 'bigint') }} as output_tokens,
    {{ ce_provenance('i') }}
from iterations as i
{{ json_each('i.iteration_json', '$.provider_call_costs', 'p') }}
