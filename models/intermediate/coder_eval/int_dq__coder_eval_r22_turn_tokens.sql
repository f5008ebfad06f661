{#-
  R22 (what task.json claims): per turn, the four token buckets summed over its assistant and reconciliation
  messages equal the turn's token_usage. One row per turn (with a token_usage) that disagrees.
-#}
with turns as (
    select * from {{ ref('stg_coder_eval__iterations') }}
    where has_token_usage
),

message_sums as (
    select
        run_dir,
        variant_id,
        task_id,
        replicate_index,
        iteration_index,
        sum(uncached_input_tokens) as uncached_input_tokens,
        sum(cache_creation_input_tokens) as cache_creation_input_tokens,
        sum(cache_read_input_tokens) as cache_read_input_tokens,
        sum(output_tokens) as output_tokens
    from {{ ref('stg_coder_eval__messages') }}
    where message_role in ('assistant', 'reconciliation')
    group by run_dir, variant_id, task_id, replicate_index, iteration_index
),

checks as (
    select
        t.source_file,
        t.iteration_index,
        concat_ws(
            '; ',
            {%- for b in ['uncached_input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens',
                          'output_tokens'] %}
                case when coalesce(m.{{ b }}, 0) <> t.turn_{{ b }}
                        then '{{ b }}: messages ' || cast(coalesce(m.{{ b }}, 0) as {{ dbt.type_string() }})
                            || ' vs token_usage ' || cast(t.turn_{{ b }} as {{ dbt.type_string() }})
                end{% if not loop.last %},{% endif %}
            {%- endfor %}
        ) as detail
    from turns as t
    left join message_sums as m
        on
            {{ coder_eval_same_replicate('t', 'm') }}
            and t.iteration_index = m.iteration_index
)

select
    {{ dq_finding('R22', 'coder_eval', line=false) }},
    'iterations[' || cast(iteration_index as {{ dbt.type_string() }}) || ']: ' || detail as detail
from checks
where detail <> ''
