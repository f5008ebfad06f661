{#-
  One row per brownfield run with the assertion and regression counts recomputed from the
  unnested change_detail and regress_misses lists, the recomputed assertion pass share, and the
  done-but-broke flag (R06); `model` is the normalised id (model_aliases), `model_raw` the logged spelling.
-#}
{{ pairs_incremental_config("ref('stg_big__runs')") }}

with

runs as (
    select stg_runs.* from {{ ref('stg_big__runs') }} as stg_runs
    -- a record with none of a run's fields is not a run (an int_dq__big_foreign_records finding)
    where not coalesce(stg_runs.is_foreign_record, false)
    {{ only_new_pairs('stg_runs', keyword='and') }}
),

assertions as (
    select
        stg_assertions.run_key,
        count(*) as n_elements,
        count(case when stg_assertions.passed then 1 end) as n_passed,
        count(case when stg_assertions.element_invalid then 1 end) as n_invalid
    from {{ ref('stg_big__change_assertions') }} as stg_assertions
    {{ only_new_pairs('stg_assertions') }}
    group by stg_assertions.run_key
),

misses as (
    select
        stg_misses.run_key,
        count(*) as n_misses
    from {{ ref('stg_big__regress_misses') }} as stg_misses
    {{ only_new_pairs('stg_misses') }}
    group by stg_misses.run_key
),

joined as (
    select
        runs.run_key,
        runs.load_id,
        runs.source_file,
        runs.source_line,
        runs.record_sha256,
        runs.is_repaired,
        runs.record_format,
        runs.scenario_id,
        runs.scenario_name,
        runs.kind_raw,
        runs.kind,
        runs.kind_from_id_prefix,
        runs.difficulty,
        runs.model as model_raw,
        runs.with_brain,
        runs.with_plan,
        runs.change,
        runs.regress,
        runs.wall_s,
        runs.calls,
        runs.cost_usd_logged,
        runs.stamp,
        runs.stamp_is_naive,
        case when runs.change_detail_count is not null then coalesce(assertions.n_elements, 0) end
            as change_assertions_total,
        case when runs.change_detail_count is not null then coalesce(assertions.n_passed, 0) end
            as change_assertions_passed,
        case when runs.change_detail_count is not null then coalesce(assertions.n_invalid, 0) end
            as change_assertions_invalid,
        case when runs.regress_misses_count is not null then coalesce(misses.n_misses, 0) end
            as regress_miss_count
    from runs
    left join assertions on runs.run_key = assertions.run_key
    left join misses on runs.run_key = misses.run_key
),

-- one model key everywhere: the rate card's id (model_aliases seed), the logged spelling beside it
names as {{ model_name_map('joined', 'model_raw', ref('model_aliases')) }}

select
    joined.*,
    names.model,
    cast(joined.change_assertions_passed as double) / nullif(joined.change_assertions_total, 0) as assertion_pass_share,
    (joined.change = 1.0 and joined.regress < 1.0) as done_but_broke
from joined
left join names
    on joined.model_raw = names.model_raw
