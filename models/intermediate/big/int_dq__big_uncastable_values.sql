{#-
  Typing (what the logs claim): one row per (run, field) whose value was present but did not cast
  to its type, or lies outside its range, or whose list is not a list; plus malformed
  change_detail elements and loader repairs. The typed value is NULL in staging; the run is kept.
-#}
with

runs as (
    select * from {{ ref('stg_big__runs') }}
),

bad_runs as (
    select * from runs
    where
        difficulty_invalid or with_brain_invalid or with_plan_invalid or change_invalid
        or change_out_of_range or regress_invalid or regress_out_of_range or change_detail_invalid
        or regress_misses_invalid or wall_s_invalid or calls_invalid or cost_invalid
),

flags as (
    select
        source_file,
        source_line,
        'difficulty' as field,
        difficulty_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'with_brain' as field,
        with_brain_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'with_plan' as field,
        with_plan_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'change' as field,
        change_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'change (outside [0, 1])' as field,
        change_out_of_range as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'regress' as field,
        regress_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'regress (outside [0, 1])' as field,
        regress_out_of_range as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'change_detail (not a list)' as field,
        change_detail_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'regress_misses (not a list)' as field,
        regress_misses_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'wall_s' as field,
        wall_s_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'calls' as field,
        calls_invalid as bad
    from bad_runs
    union all
    select
        source_file,
        source_line,
        'cost' as field,
        cost_invalid as bad
    from bad_runs
),

bad_elements as (
    select
        source_file,
        source_line,
        'change_detail[' || cast(assertion_position as {{ dbt.type_string() }}) || '] is not a [name, boolean] pair: '
        || left(element_json, 200) as detail
    from {{ ref('stg_big__change_assertions') }}
    where element_invalid
),

repairs as (
    select
        source_file,
        source_line,
        'loader repaired the line: ' || repaired as detail
    from runs
    where is_repaired
)

select
    {{ dq_finding('TYPE', 'big') }},
    'value of ' || field || ' did not cast or is out of range; typed as NULL' as detail
from flags
where bad
union all
select
    'TYPE' as rule_id,
    'big' as source_family,
    source_file,
    source_line,
    detail
from bad_elements
union all
select
    'LOAD' as rule_id,
    'big' as source_family,
    source_file,
    source_line,
    detail
from repairs
