with iterations as (select * from {{ ref('base_coder_eval__task_iterations') }})

select
    {{ coder_eval_replicate_identity('i') }},
    i.iteration_index,
    p.position as call_index,
    {{ json_text('p.value', '$.call_id') }} as call_id,
    {{ coder_eval_typed('p.value', '$.cost_usd', 'double') }} as actual_cost_usd,
    {{ coder_eval_typed('p.value', '$.input_tokens', 'bigint') }} as input_tokens_incl_cached,
    {{ coder_eval_typed('p.value', '$.cache_read_tokens', 'bigint') }} as cache_read_tokens,
    {{ coder_eval_typed('p.value', '$.cache_write_tokens', 'bigint') }} as cache_write_tokens,
    {{ coder_eval_typed('p.value', '$.output_tokens', 'bigint') }} as output_tokens,
    {{ coder_eval_provenance('i') }}
from iterations as i
{{ json_each('i.iteration_json', '$.provider_call_costs', 'p') }}
