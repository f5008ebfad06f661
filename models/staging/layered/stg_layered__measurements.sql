{#- One row per line of logs_layered/*.jsonl: every field typed with try_cast, flagged, never dropped. -#}
{{ pairs_incremental_config("source('layered', 'layered_lines')") }}

with source as (
    select src.* from {{ source('layered', 'layered_lines') }} as src
    {{ only_new_pairs('src') }}
),

typed as (
    select
        {{ jsonl_line_header('s') }},
        {{ file_stem('s.source_file') }} as pipeline,
        {{ json_text('s.record', '$.task_id') }} as task_id,
        {{ jsonl_typed_field('s.record', '$.rep', 'rep', 'bigint') }},
        {{ json_text('s.record', '$.measurement') }} as measurement_raw,
        lower(trim({{ json_text('s.record', '$.measurement') }})) as measurement,
        {{ json_text('s.record', '$.l1') }} as l1,
        {{ json_text('s.record', '$.l2') }} as l2,
        {{ json_text('s.record', '$.l3') }} as l3,
        {{ json_text('s.record', '$.ref_coder') }} as ref_coder,
        nullif(trim({{ json_text('s.record', '$.route_expected') }}), '') as route_expected,
        nullif(trim({{ json_text('s.record', '$.route_actual') }}), '') as route_actual,
        {{ json_text('s.record', '$.plan') }} as plan,
        {{ json_text('s.record', '$.note') }} as note,
        {{ jsonl_typed_field('s.record', '$.passed', 'passed', 'boolean') }},
        {{ jsonl_typed_field('s.record', '$.l1_cost', 'l1_cost', 'double') }},
        {{ jsonl_typed_field('s.record', '$.l1_latency', 'l1_latency', 'double') }},
        {{ jsonl_typed_field('s.record', '$.l2_cost', 'l2_cost', 'double') }},
        {{ jsonl_typed_field('s.record', '$.l2_latency', 'l2_latency', 'double') }},
        {{ jsonl_typed_field('s.record', '$.l3_cost', 'l3_cost', 'double') }},
        {{ jsonl_typed_field('s.record', '$.l3_latency', 'l3_latency', 'double') }},
        {{ jsonl_typed_field('s.record', '$.total_cost', 'total_cost', 'double') }},
        {{ jsonl_typed_field('s.record', '$.total_latency', 'total_latency', 'double') }},
        {{ jsonl_typed_field('s.record', '$.prompt_tokens', 'prompt_tokens', 'bigint') }},
        {{ jsonl_typed_field('s.record', '$.completion_tokens', 'completion_tokens', 'bigint') }},
        {{ jsonl_typed_field('s.record', '$.cached_tokens', 'cached_tokens', 'bigint') }},
        {{ json_text('s.record', '$.stamp') }} as stamp_raw,
        {{ parse_utc_timestamp(json_text('s.record', '$.stamp')) }} as stamp,
        {{ is_naive_timestamp(json_text('s.record', '$.stamp')) }} as stamp_is_naive
    from source as s
)

select
    t.*,
    coalesce(t.measurement not in ('l1', 'l2plan', 'l2conv', 'l3', 'total'), true) as measurement_invalid,
    coalesce(t.stamp_raw is not null and t.stamp is null, false) as stamp_invalid,
    coalesce(t.cached_tokens > t.prompt_tokens, false) as cached_exceeds_prompt,
    -- none of a measurement's fields: not a pipeline measurement at all (foreign JSON); flagged here, left out downstream
    coalesce(
        t.task_id is null and t.rep_raw is null and t.measurement_raw is null and t.passed_raw is null
        and t.l1 is null and t.l2 is null and t.l3 is null and t.total_cost_raw is null,
        true
    ) as is_foreign_record
from typed as t
