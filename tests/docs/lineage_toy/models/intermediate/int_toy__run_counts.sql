select
    a.source_file,
    a.source_line,
    count(*) as n_assertions,
    count_if(a.passed) as n_passed
from {{ ref('stg_toy__assertions') }} as a
group by a.source_file, a.source_line
