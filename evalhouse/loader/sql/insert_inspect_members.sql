-- inspect_ai log members (inspect.py): one row per member of one file
INSERT INTO raw.inspect_members (load_id, loaded_at, source_file, log_format, member, member_kind, sample_id,
    sample_id_is_int, epoch, document, document_sha256, file_sha256)
SELECT $load_id, $at, $file, $fmt, unnest($member::VARCHAR[]), unnest($kind::VARCHAR[]),
    unnest($sample_id::VARCHAR[]), unnest($is_int::BOOLEAN[]), unnest($epoch::INTEGER[]), unnest($doc::VARCHAR[]),
    unnest($sha::VARCHAR[]), $file_sha
