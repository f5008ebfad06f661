{#-
  Shared column builders for the coder-eval staging models (typed with try_cast; JSON through
  macros/engine/json.sql only).
-#}

{#- Typed value at `path` of JSON text `expr`. -#}
{% macro coder_eval_typed(expr, path, type) -%}
    {{ try_cast_text(json_text(expr, path), type) }}
{%- endmacro %}

{#- True when the JSON value at `path` is an object (present and not JSON null). -#}
{% macro coder_eval_is_object(expr, path) -%}
    coalesce({{ json_type(expr, path) }} = 'OBJECT', false)
{%- endmacro %}

{#-
  The typed TokenUsage at `path` of `expr`, as columns named <prefix><bucket>.
  NULL buckets when the TokenUsage is absent or JSON null; a missing bucket key inside an
  existing TokenUsage is its pydantic default 0. Legacy writers (pre-0.8.2) stored only
  `input_tokens`: coder-eval adopts it as the uncached slice (models/telemetry.py
  _adopt_legacy_input_tokens), and so do we, flagging the row.
-#}
{% macro coder_eval_token_usage_columns(expr, path, prefix) -%}
    case when {{ coder_eval_is_object(expr, path) }} then
        coalesce(
            {{ coder_eval_typed(expr, path ~ '.uncached_input_tokens', 'bigint') }},
            case when not {{ json_has(expr, path ~ '.uncached_input_tokens') }}
                then {{ coder_eval_typed(expr, path ~ '.input_tokens', 'bigint') }} end,
            0
        ) end as {{ prefix }}uncached_input_tokens,
    case when {{ coder_eval_is_object(expr, path) }} then
        coalesce({{ coder_eval_typed(expr, path ~ '.cache_creation_input_tokens', 'bigint') }}, 0)
    end as {{ prefix }}cache_creation_input_tokens,
    case when {{ coder_eval_is_object(expr, path) }} then
        coalesce({{ coder_eval_typed(expr, path ~ '.cache_read_input_tokens', 'bigint') }}, 0)
    end as {{ prefix }}cache_read_input_tokens,
    case when {{ coder_eval_is_object(expr, path) }} then
        coalesce({{ coder_eval_typed(expr, path ~ '.output_tokens', 'bigint') }}, 0)
    end as {{ prefix }}output_tokens,
    {{ coder_eval_typed(expr, path ~ '.total_cost_usd', 'double') }} as {{ prefix }}cost_usd,
    {{ coder_eval_typed(expr, path ~ '.input_tokens', 'bigint') }} as {{ prefix }}input_tokens_stored,
    ({{ coder_eval_is_object(expr, path) }}
        and not {{ json_has(expr, path ~ '.uncached_input_tokens') }}) as {{ prefix }}is_legacy_input_tokens
{%- endmacro %}
