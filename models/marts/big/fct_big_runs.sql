{#- One row per logged brownfield run (a line of logs_big/*.jsonl), typed, with provenance. -#}
{{ config(
    materialized='incremental',
    incremental_strategy=pairs_incremental_strategy(),
    on_schema_change='fail',
    pre_hook="{{ delete_unloaded_pairs(ref('int_big__runs')) }}"
) }}

with

runs as (
    select int_runs.* from {{ ref('int_big__runs') }} as int_runs
    {{ only_new_pairs('int_runs') }}
)

select
    cast(run_key as {{ dbt.type_string() }}) as run_key,
    cast(scenario_id as {{ dbt.type_string() }}) as scenario_id,
    cast(scenario_name as {{ dbt.type_string() }}) as scenario_name,
    cast(kind as {{ dbt.type_string() }}) as kind,
    cast(kind_raw as {{ dbt.type_string() }}) as kind_raw,
    cast(model as {{ dbt.type_string() }}) as model,
    cast(model_raw as {{ dbt.type_string() }}) as model_raw,
    cast(with_brain as boolean) as with_brain,
    cast(with_plan as boolean) as with_plan,
    cast(difficulty as integer) as difficulty,
    cast(change as double) as change,
    cast(change_assertions_total as bigint) as change_assertions_total,
    cast(change_assertions_passed as bigint) as change_assertions_passed,
    cast(assertion_pass_share as double) as assertion_pass_share,
    cast(regress as double) as regress,
    cast(regress_miss_count as bigint) as regress_miss_count,
    cast(done_but_broke as boolean) as done_but_broke,
    cast(wall_s as double) as wall_s,
    cast(calls as bigint) as calls,
    cast(cost_usd_logged as double) as cost_usd_logged,
    cast(stamp as {{ type_timestamptz() }}) as stamp,
    cast(stamp_is_naive as boolean) as stamp_is_naive,
    cast(record_format as {{ dbt.type_string() }}) as record_format,
    cast(is_repaired as boolean) as is_repaired,
    cast(source_file as {{ dbt.type_string() }}) as source_file,
    cast(source_line as bigint) as source_line,
    cast(load_id as {{ dbt.type_string() }}) as load_id,
    cast(record_sha256 as {{ dbt.type_string() }}) as record_sha256
from runs
