{#-
  One row per logged brownfield run (logs_big/*.jsonl line), every field typed with try_cast (try_cast_text: as DuckDB reads text, on every engine).
  Never filters, never joins: a value that does not cast becomes NULL and sets its *_invalid flag.
  Orange records carry calls / cost at the top level; axium bench records (nested config /
  metrics) are mapped where cheap: calls <- metrics.llm_calls, cost <- metrics.cost_usd.
-#}
{{ pairs_incremental_config("source('big', 'big_lines')") }}
{%- set line_columns = ['load_id', 'loaded_at', 'source_file', 'source_line', 'record_sha256', 'file_sha256', 'repaired'] %}

with

source as (
    select src.* from {{ source('big', 'big_lines') }} as src
    {{ only_new_pairs('src') }}
),

extracted as (
    select
        {{ qualified(none, line_columns) }},
        {{ json_text('record', '$.id') }} as scenario_id_text,
        {{ json_text('record', '$.name') }} as scenario_name_text,
        {{ json_text('record', '$.kind') }} as kind_text,
        {{ json_text('record', '$.difficulty') }} as difficulty_text,
        {{ json_text('record', '$.model') }} as model_text,
        {{ json_text('record', '$.with_brain') }} as with_brain_text,
        {{ json_text('record', '$.with_plan') }} as with_plan_text,
        {{ json_text('record', '$.change') }} as change_text,
        {{ json_text('record', '$.regress') }} as regress_text,
        {{ json_type('record', '$.change_detail') }} as change_detail_json_type,
        {{ json_array_length('record', '$.change_detail') }} as change_detail_length,
        {{ json_type('record', '$.regress_misses') }} as regress_misses_json_type,
        {{ json_array_length('record', '$.regress_misses') }} as regress_misses_length,
        {{ json_array_length('record', '$.changed_files') }} as changed_files_length,
        {{ json_text('record', '$.wall_s') }} as wall_s_text,
        coalesce({{ json_text('record', '$.calls') }}, {{ json_text('record', '$.metrics.llm_calls') }}) as calls_text,
        coalesce({{ json_text('record', '$.cost') }}, {{ json_text('record', '$.metrics.cost_usd') }}) as cost_text,
        {{ json_text('record', '$.stamp') }} as stamp_text,
        ({{ json_has('record', '$.metrics') }} or {{ json_has('record', '$.config') }}) as has_nested_metrics
    from source
),

typed as (
    select
        *,
        {{ try_cast_text('difficulty_text', 'integer') }} as difficulty,
        {{ try_cast_text('with_brain_text', 'boolean') }} as with_brain,
        {{ try_cast_text('with_plan_text', 'boolean') }} as with_plan,
        try_cast(change_text as double) as change,
        try_cast(regress_text as double) as regress,
        try_cast(wall_s_text as double) as wall_s,
        {{ double_to_integer(try_cast_text('calls_text', 'double'), 'bigint') }} as calls,
        try_cast(cost_text as double) as cost_usd_logged,
        {{ parse_utc_timestamp('stamp_text') }} as stamp,
        {{ is_naive_timestamp('stamp_text') }} as stamp_is_naive,
        lower(trim(kind_text)) as kind_lower,
        upper(left(trim(scenario_id_text), 1)) as id_prefix
    from extracted
)

select
    {{ line_key('source_file', 'source_line') }} as run_key,
    {{ qualified(none, line_columns) }},
    repaired is not null as is_repaired,
    case when has_nested_metrics then 'axium' else 'orange' end as record_format,
    trim(scenario_id_text) as scenario_id,
    scenario_name_text as scenario_name,
    kind_text as kind_raw,
    case
        when kind_lower in ('aware', 'awareness') then 'awareness'
        else kind_lower
    end as kind,
    case id_prefix
        when 'B' then 'fix'
        when 'R' then 'refactor'
        when 'A' then 'awareness'
    end as kind_from_id_prefix,
    difficulty,
    trim(model_text) as model,
    with_brain,
    with_plan,
    change,
    regress,
    change_detail_length as change_detail_count,
    regress_misses_length as regress_misses_count,
    changed_files_length as changed_files_count,
    wall_s,
    calls,
    cost_usd_logged,
    stamp_text as stamp_raw,
    stamp,
    stamp_is_naive,
    coalesce(difficulty_text is not null and difficulty is null, false) as difficulty_invalid,
    coalesce(with_brain_text is not null and with_brain is null, false) as with_brain_invalid,
    coalesce(with_plan_text is not null and with_plan is null, false) as with_plan_invalid,
    coalesce(change_text is not null and change is null, false) as change_invalid,
    coalesce(change < 0 or change > 1, false) as change_out_of_range,
    coalesce(regress_text is not null and regress is null, false) as regress_invalid,
    coalesce(regress < 0 or regress > 1, false) as regress_out_of_range,
    coalesce(change_detail_json_type not in ('ARRAY', 'NULL'), false) as change_detail_invalid,
    coalesce(regress_misses_json_type not in ('ARRAY', 'NULL'), false) as regress_misses_invalid,
    coalesce(wall_s_text is not null and wall_s is null, false) as wall_s_invalid,
    coalesce(calls_text is not null and calls is null, false) as calls_invalid,
    coalesce(cost_text is not null and cost_usd_logged is null, false) as cost_invalid,
    coalesce(stamp_text is not null and stamp is null, false) as stamp_invalid,
    -- none of a run's fields: not a brownfield run at all (foreign JSON); flagged here, left out downstream
    coalesce(
        scenario_id_text is null and kind_text is null and model_text is null and change_text is null
        and regress_text is null,
        true
    ) as is_foreign_record
from typed
