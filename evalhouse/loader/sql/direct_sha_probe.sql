-- (after "SELECT count(*) FROM raw.<table> ") the pre-pass's line hashes against DuckDB's own sha256, on a
-- sample any misalignment would hit: line 1, every 997th line, the last lines. Never expected: a guard.
WHERE load_id = $load_id AND source_file = $file
  AND (source_line % 997 = 1 OR source_line > $n_lines - 3) AND record_sha256 IS DISTINCT FROM sha256(record)
