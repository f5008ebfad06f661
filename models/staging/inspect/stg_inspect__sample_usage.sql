{#-
  One row per (log, sample, epoch, usage scope, key): the token usage a sample records, typed as inspect_ai
  writes it. Scope 'model' is `model_usage` (keyed by model name: every call to that model, whatever role made
  it); scope 'role' is `role_usage` (keyed by model role, e.g. grader: the calls made through that role, which
  `model_usage` counts again under the role's model). A token key inspect_ai omits (it was None) is NULL:
  unknown, never 0. `input_tokens` is as the log states it: whether it includes cache reads depends on the
  inspect_ai version and provider (int_inspect__sample_spend applies the convention).
-#}
with members as (select * from {{ ref('base_inspect__sample_members') }}),

usage as (
    select
        {{ qualified('m', inspect_sample_grain()) }},
        'model' as usage_scope,
        u.key as usage_key,
        u.value as usage_json,
        m.load_id
    from members as m
    {{ json_each_entry('m.document', '$.model_usage', 'u') }}
    union all
    select
        {{ qualified('m', inspect_sample_grain()) }},
        'role' as usage_scope,
        u.key as usage_key,
        u.value as usage_json,
        m.load_id
    from members as m
    {{ json_each_entry('m.document', '$.role_usage', 'u') }}
)

select
    {{ qualified('u', inspect_sample_grain()) }},
    u.usage_scope,
    u.usage_key,
    {{ try_cast_text(json_text('u.usage_json', '$.input_tokens'), 'bigint') }} as input_tokens,
    {{ try_cast_text(json_text('u.usage_json', '$.output_tokens'), 'bigint') }} as output_tokens,
    {{ try_cast_text(json_text('u.usage_json', '$.total_tokens'), 'bigint') }} as total_tokens,
    {{ try_cast_text(json_text('u.usage_json', '$.input_tokens_cache_read'), 'bigint') }} as cache_read_tokens,
    {{ try_cast_text(json_text('u.usage_json', '$.input_tokens_cache_write'), 'bigint') }} as cache_write_tokens,
    {{ try_cast_text(json_text('u.usage_json', '$.reasoning_tokens'), 'bigint') }} as reasoning_tokens,
    try_cast({{ json_text('u.usage_json', '$.total_cost') }} as double) as total_cost_usd_logged,
    u.load_id
from usage as u
