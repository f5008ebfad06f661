-- Drop the quarantine rows of earlier loads that no longer describe their file (registry.py flush): all of a
-- file's rows when this load read it from its start, or only its whole-file errors when it failed again.
DELETE FROM raw.load_errors
WHERE load_id <> $load_id
  AND source_file IN (SELECT unnest($p::VARCHAR[]))
  AND (NOT $whole_file_only OR source_line IS NULL)
