-- one row: how many lines, their sum, and a digest of every record hash (order-independent)
select
    count(*) as n_lines,
    coalesce(sum(value), 0) as value_sum,
    coalesce(md5(string_agg(record_sha256, ',' order by record_sha256)), '') as digest
from {{ ref('mini_lines') }}
