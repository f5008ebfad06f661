-- the file registry (registry.py FileRecord): its fields in order; registered_ns = the registering load's start
SELECT f.source_file, f.family, f.size_bytes, f.mtime_ns, f.bytes_landed, f.prefix_sha256, f.file_sha256,
    f.lines_read, f.lines_landed, f.first_load_id, f.duplicate_of, epoch_ns(l.started_at), f.oversize_cap,
    f.first_line_sha256
FROM raw.files AS f LEFT JOIN raw.loads AS l ON l.load_id = f.last_load_id
