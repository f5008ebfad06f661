select
    source_file,
    count(*) as n_lines,
    sum(value) as value_sum
from {{ ref('mini_lines') }}
group by source_file
