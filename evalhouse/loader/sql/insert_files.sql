-- the file registry (registry.py FileRecord): one row per list element, all registered by $load_id
INSERT INTO raw.files (source_file, family, size_bytes, mtime_ns, bytes_landed, prefix_sha256, file_sha256,
    lines_read, lines_landed, first_load_id, duplicate_of, oversize_cap, first_line_sha256, last_load_id)
SELECT unnest($source_file::VARCHAR[]), unnest($family::VARCHAR[]), unnest($size_bytes::BIGINT[]),
    unnest($mtime_ns::BIGINT[]), unnest($bytes_landed::BIGINT[]), unnest($prefix_sha256::VARCHAR[]),
    unnest($file_sha256::VARCHAR[]), unnest($lines_read::BIGINT[]), unnest($lines_landed::BIGINT[]),
    unnest($first_load_id::VARCHAR[]), unnest($duplicate_of::VARCHAR[]), unnest($oversize_cap::BIGINT[]),
    unnest($first_line_sha256::VARCHAR[]), $load_id
