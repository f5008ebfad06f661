-- (after "UPDATE raw.<table> ") a probe mismatch rehashes the file's rows in SQL
SET record_sha256 = sha256(record) WHERE load_id = $load_id AND source_file = $file
