-- fails (rows returned) when a raw record carries "poison": lets tests make a build fail on purpose
select source_file, source_line
from {{ source('big', 'big_lines') }}
where record like '%"poison"%'
