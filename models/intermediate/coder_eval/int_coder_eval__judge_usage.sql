{#- One row per judge criterion result that carries token usage, with its judge model and the replicate's start time. -#}
with results as (
    select * from {{ ref('stg_coder_eval__criterion_results') }}
    where result_kind = 'judge' and judge_uncached_input_tokens is not null
),

declared as (select * from {{ ref('stg_coder_eval__declared_criteria') }}),

replicates as (select * from {{ ref('int_coder_eval__replicates') }})

select
    p.replicate_key || '|judge|' || r.result_phase || '|' || cast(r.criterion_index as {{ dbt.type_string() }}) as record_key,
    p.replicate_key,
    r.result_phase,
    r.criterion_index,
    r.criterion_type,
    d.judge_model,
    p.started_at as priced_at,
    p.started_at_is_naive as priced_at_is_naive,
    p.run_id,
    p.variant_id,
    p.task_id,
    r.judge_uncached_input_tokens as uncached_input_tokens,
    r.judge_cache_creation_input_tokens as cache_creation_input_tokens,
    r.judge_cache_read_input_tokens as cache_read_input_tokens,
    r.judge_output_tokens as output_tokens,
    r.judge_cost_usd as cost_usd,
    r.source_file,
    r.load_id
from results as r
inner join replicates as p
    on
        {{ coder_eval_same_replicate('r', 'p') }}
left join declared as d
    on
        {{ coder_eval_same_replicate('r', 'd') }}
        and r.criterion_index = d.criterion_index
