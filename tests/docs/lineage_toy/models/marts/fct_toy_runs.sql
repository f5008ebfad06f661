with runs as (select * from {{ ref('stg_toy__runs') }})
select
    r.source_file,
    r.change,
    c.n_assertions as change_assertions_total,
    m.kind_category,
    {{ json_text('r.config_json', '$.primary') }} as primary_model,
    'big' as source_family,
    row_number() over (order by r.source_file, r.source_line) as run_number
from runs as r
left join {{ ref('int_toy__run_counts') }} as c
    on r.source_file = c.source_file and r.source_line = c.source_line
left join {{ ref('kind_map') }} as m on r.kind = m.raw_kind
