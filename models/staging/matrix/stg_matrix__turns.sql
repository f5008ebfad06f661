{#- One row per line of logs/<chat>__<coder>.jsonl: every field typed with try_cast, flagged, never dropped. -#}
{{ pairs_incremental_config("source('matrix', 'matrix_lines')") }}

with source as (
    select src.* from {{ source('matrix', 'matrix_lines') }} as src
    {{ only_new_pairs('src') }}
),

typed as (
    select
        {{ jsonl_line_header('s') }},
        {{ file_stem('s.source_file') }} as cell,
        {{ split_part_text(file_stem('s.source_file'), '__', 1) }} as cell_chat_model,
        {{ split_part_text(file_stem('s.source_file'), '__', 2) }} as cell_coder_model,
        {{ json_text('s.record', '$.scenario_id') }} as scenario_id,
        {{ jsonl_typed_field('s.record', '$.turn_index', 'turn_index', 'bigint') }},
        {{ jsonl_typed_field('s.record', '$.rep', 'rep', 'bigint') }},
        {{ json_text('s.record', '$.type') }} as turn_type_raw,
        lower(trim({{ json_text('s.record', '$.type') }})) as turn_type,
        {{ json_text('s.record', '$.check_kind') }} as check_kind_raw,
        lower(trim({{ json_text('s.record', '$.check_kind') }})) as check_kind,
        {{ jsonl_typed_field('s.record', '$.check_passed', 'check_passed', 'boolean') }},
        {{ json_text('s.record', '$.check_note') }} as check_note,
        {{ jsonl_typed_field('s.record', '$.prompt_tokens', 'prompt_tokens', 'bigint') }},
        {{ jsonl_typed_field('s.record', '$.completion_tokens', 'completion_tokens', 'bigint') }},
        {{ jsonl_typed_field('s.record', '$.cached_tokens', 'cached_tokens', 'bigint') }},
        {{ jsonl_typed_field('s.record', '$.cost_usd', 'cost_usd', 'double') }},
        {{ jsonl_typed_field('s.record', '$.latency_s', 'latency_s', 'double') }},
        {{ json_text('s.record', '$.difficulty') }} as difficulty_raw,
        lower(trim({{ json_text('s.record', '$.difficulty') }})) as difficulty,
        {{ json_text('s.record', '$.chat_model') }} as record_chat_model,
        {{ json_text('s.record', '$.coder_model') }} as record_coder_model,
        {{ json_text('s.record', '$.model') }} as record_model,
        {{ json_text('s.record', '$.stamp') }} as stamp_raw,
        {{ parse_utc_timestamp(json_text('s.record', '$.stamp')) }} as stamp,
        {{ is_naive_timestamp(json_text('s.record', '$.stamp')) }} as stamp_is_naive
    from source as s
)

select
    t.*,
    t.cell_coder_model is null as cell_invalid,
    coalesce(t.turn_type not in ('chat', 'coder'), false) as turn_type_invalid,
    coalesce(t.stamp_raw is not null and t.stamp is null, false) as stamp_invalid,
    coalesce(t.cached_tokens > t.prompt_tokens, false) as cached_exceeds_prompt,
    -- none of a turn's fields: not a matrix turn at all (foreign JSON); flagged here, left out downstream
    coalesce(
        t.scenario_id is null and t.turn_index_raw is null and t.turn_type_raw is null and t.check_kind_raw is null
        and t.check_passed_raw is null,
        true
    ) as is_foreign_record
from typed as t
