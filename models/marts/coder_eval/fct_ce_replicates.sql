with replicates as (
    select * from {{ ref('int_ce__replicates') }}
),

-- one model key everywhere: the rate card's id (model_aliases seed), the logged spelling beside it
names as {{ model_name_map('replicates', 'model') }},

named as (
    select
        replicates_raw.*,
        names.model as model_normalised
    from replicates as replicates_raw
    left join names
        on replicates_raw.model = names.model_raw
)

select
    run_id || '|' || variant_id || '|' || task_id || '|' || coalesce(cast(replicate_index as varchar), '?')
        as replicate_key,
    run_id,
    run_dir,
    variant_id,
    task_id,
    suite_id,
    row_id,
    replicate_index,
    record_source,
    final_status,
    status_category,
    is_execution_fact,
    worst_of_priority,
    coalesce(status_category <> 'ungraded', true) as is_graded,
    (weighted_score is not null) as is_measured,
    (status_category = 'succeeded') as is_succeeded,
    weighted_score,
    case
        when status_category = 'ungraded' then null
        else coalesce(weighted_score, 0.0)
    end as score_for_average,
    duration_seconds,
    iteration_count,
    total_assistant_turns,
    total_turns,
    uncached_input_tokens,
    cache_creation_input_tokens,
    cache_read_input_tokens,
    output_tokens,
    uncached_input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens as total_tokens,
    agent_cost_usd,
    judge_cost_usd,
    simulator_cost_usd,
    simulator_input_tokens,
    simulator_output_tokens,
    simulator_model,
    case
        when agent_cost_usd is not null or judge_cost_usd is not null or simulator_cost_usd is not null
            then coalesce(agent_cost_usd, 0) + coalesce(judge_cost_usd, 0) + coalesce(simulator_cost_usd, 0)
    end as total_cost_usd,
    cost_complete,
    provider_actual_cost_usd,
    n_provider_calls,
    system_prompt_regime,
    is_system_prompt_regime_inferred,
    stopped_early,
    early_stop_reason,
    started_at,
    started_at_is_naive,
    model_normalised as model,
    model as model_raw,
    agent_type,
    is_legacy_token_usage,
    source_file,
    load_id,
    document_sha256
from named
