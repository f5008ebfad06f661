{#-
  One row per member of an inspect_ai log, typed provenance and the member's JSON text. inspect_ai writes
  non-finite floats as the bare literals NaN / Infinity; DuckDB's JSON reader takes them as the float values
  (a NaN score stays NaN, as inspect_ai's own value_to_float leaves it), and `has_nonfinite_literals` flags the
  member. A base model: the inspect staging models read their members from here.
-#}
with source as (select * from {{ source('inspect', 'inspect_members') }})

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
    {{ matches_regex('s.document', "'[:\[,]\s*-?(NaN|Infinity)\s*[,\]}]'") }} as has_nonfinite_literals,
    s.document
from source as s
