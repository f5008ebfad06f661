-- The WHENs that pick a JSON text (column `text`, its top-level keys in `keys`) for Python's second look
-- ('check') or pass it ('ok'); shared by classify.sql (the chunked path) and direct_check.sql (the direct path).
-- Duplicate keys, exactly: DuckDB's json_keys keeps repeated keys (decoded, so "a\u0062" and "ab" compare
-- equal); json_keys(text) covers the top-level object and json_keys(text, '$..*') (recursive descent) every
-- nested object, inside arrays too. A line with a repeated key in any object goes to Python.
-- CASE evaluates each WHEN only for the rows that reach it, so the costlier tests run on fewer rows. The
-- nested test runs only when a second '{' follows the first character: a nested object needs one (a sound
-- superset filter; a '{' inside a string only costs the exact test).
-- $key_lists: top-level key lists the pre-pass saw without a repeat in the file's first lines; a line whose
-- key list equals one of them has no repeated top-level key, so the costlier list_distinct test runs only on
-- the other lines (for schema-stable logs: none).
-- suspicious_re (statements.py): numbers Python's json reads differently (NaN, Infinity, huge exponents) and trailing commas.
WHEN keys IS NULL THEN 'check'
        WHEN regexp_matches(text, '@suspicious_re@') THEN 'check'
        WHEN NOT list_contains($key_lists::VARCHAR[][], keys) AND len(keys) <> len(list_distinct(keys)) THEN 'check'
        WHEN strpos(substr(text, 2), '{') = 0 THEN 'ok'
        WHEN coalesce(list_bool_or(list_transform(json_keys(text, '$..*'),
                                                  lambda k: len(k) <> len(list_distinct(k)))), false) THEN 'check'
        ELSE 'ok'
