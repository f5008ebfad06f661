select
    source_file,
    source_line,
    record_sha256,
    try_cast(json_extract_string(record, '$.value') as bigint) as value
from {{ source('big', 'big_lines') }}
