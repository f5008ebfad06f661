{#-
  One row per page named in a run's regress_misses list: a regression assertion (a page of
  the app's catalogue) that failed after the agent's edit.
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
        rm.position + 1 as miss_position,
        {{ json_text('rm.value', '$') }} as missed_page
    from source as src
    {{ json_each('src.record', '$.regress_misses', 'rm') }}
)

select
    {{ line_key('source_file', 'source_line') }} as run_key,
    load_id,
    source_file,
    source_line,
    miss_position,
    missed_page
from elements
