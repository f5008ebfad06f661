{#-
  One row per element of a run's change_detail list ([name, passed]): the task's own
  assertions. Never filters: an element that is not a [name, boolean] pair keeps its row with
  passed NULL and element_invalid true.
-#}
{{ pairs_incremental_config("source('big', 'big_lines')") }}

with

source as (
    select src.* from {{ source('big', 'big_lines') }} as src
    {{ only_new_pairs('src') }}
),

elements as (
    select
        src.load_id,
        src.source_file,
        src.source_line,
        cd.position + 1 as assertion_position,
        cd.value as element_json,
        {{ json_type('cd.value', '$') }} as element_json_type,
        {{ json_text('cd.value', '$[0]') }} as assertion_name,
        {{ json_text('cd.value', '$[1]') }} as passed_text
    from source as src
    {{ json_each('src.record', '$.change_detail', 'cd') }}
)

select
    {{ line_key('source_file', 'source_line') }} as run_key,
    load_id,
    source_file,
    source_line,
    assertion_position,
    assertion_name,
    {{ try_cast_text('passed_text', 'boolean') }} as passed,
    element_json,
    coalesce(element_json_type <> 'ARRAY' or {{ try_cast_text('passed_text', 'boolean') }} is null, true) as element_invalid
from elements
