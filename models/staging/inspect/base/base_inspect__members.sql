{#-
  One row per member of an inspect_ai log, its JSON made readable by every JSON function: inspect_ai writes
  non-finite floats as the bare literals NaN / Infinity, which are not JSON; such a document is kept with
  those literals read as null (`has_nonfinite_literals` says so). A base model: the inspect staging models
  read their members from here.
-#}
with source as (
    select * from {{ source('inspect', 'inspect_members') }}
)

select
    s.load_id,
    s.loaded_at,
    s.source_file,
    s.log_format,
    s.member,
    s.member_kind,
    s.sample_id,
    s.sample_id_is_int,
    s.epoch,
    s.document_sha256,
    s.file_sha256,
    not json_valid(s.document) as has_nonfinite_literals,
    case
        when json_valid(s.document) then s.document
        else regexp_replace(
            regexp_replace(s.document, '([:\[,]\s*)-?(NaN|Infinity)(\s*[,\]\}])', '\1null\3', 'g'),
            '([:\[,]\s*)-?(NaN|Infinity)(\s*[,\]\}])', '\1null\3', 'g'
        )
    end as document
from source as s
