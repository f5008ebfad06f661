select
    s.source_file,
    s.source_line,
    e.position,
    try_cast({{ json_text('e.value', '$[1]') }} as boolean) as passed
from {{ source('raw', 'big_lines') }} as s
{{ json_each('s.record', '$.change_detail', 'e') }}
