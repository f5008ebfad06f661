with src as (select * from {{ source('raw', 'big_lines') }})
select
    s.source_file,
    s.source_line,
    lower({{ json_text('s.record', '$.kind') }}) as kind,
    try_cast({{ json_text('s.record', '$.change') }} as double) as change,
    {{ json_fragment('s.record', '$.config') }} as config_json,
    {{ json_array_length('s.record', '$.change_detail') }} as n_detail
from src as s
