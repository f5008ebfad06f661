-- The direct path, statement 1 (after "INSERT INTO raw.<table> "): DuckDB's CSV scanner (csv_lines.sql)
-- reads the file itself -- whole lines, no quote/escape/delimiter, a UTF-8 BOM dropped -- numbers the lines
-- with row_number() over the order-preserving scan and lands every complete line with the sha256 the
-- pre-pass computed ($shas: one hex digest per line, read by the same scanner; POSITIONAL JOIN pairs them).
-- The numbering is a streaming window, so this statement runs on one thread: it does nothing else.
-- Used only when the pre-pass showed the file has no CR, no NUL and is valid UTF-8 (so DuckDB's line split is
-- exactly Python's split on b"\n"); it must land exactly the pre-pass's line count, or the file goes the
-- chunked way instead.
SELECT $load_id, $at, $file, n, coalesce(line, ''), sha, $fsha, NULL
FROM (SELECT row_number() OVER () AS n, a.line, b.line AS sha
      FROM @csv_lines_file@ AS a POSITIONAL JOIN @csv_lines_shas@ AS b)
WHERE n <= $n_lines
