{#- Per replicate (task.json): what its turns add up to, and whether every spending turn was priced. -#}
{%- set replicate = ['run_dir', 'variant_id', 'task_id', 'replicate_index'] %}

with iterations as (select * from {{ ref('stg_coder_eval__iterations') }}),

calls as (
    select
        {{ qualified(none, replicate) }},
        count(*) as n_provider_calls,
        sum(actual_cost_usd) as provider_actual_cost_usd,
        count(*) filter (where actual_cost_usd is null) as n_provider_calls_unpriced
    from {{ ref('stg_coder_eval__provider_call_costs') }}
    group by {{ qualified(none, replicate) }}
),

turns as (
    select
        {{ qualified(none, replicate) }},
        count(*) as n_turn_records,
        coalesce(sum(coalesce(num_turns, 0)), 0) as total_turns,
        count(*) filter (
            where has_token_usage
            and turn_uncached_input_tokens + turn_cache_creation_input_tokens
            + turn_cache_read_input_tokens + turn_output_tokens > 0
            and turn_cost_usd is null
        ) as n_unpriced_spending_turns,
        bool_or(has_final_reply) as has_final_reply
    from iterations
    group by {{ qualified(none, replicate) }}
)

select
    {{ qualified('t', replicate) }},
    t.n_turn_records,
    t.total_turns,
    t.n_unpriced_spending_turns,
    t.has_final_reply,
    coalesce(c.n_provider_calls, 0) as n_provider_calls,
    case when c.n_provider_calls_unpriced = 0 then c.provider_actual_cost_usd end as provider_actual_cost_usd
from turns as t
left join calls as c
    on
        {{ coder_eval_same_replicate('t', 'c') }}
