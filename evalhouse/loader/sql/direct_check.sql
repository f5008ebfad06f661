-- The direct path, statement 2: a parallel scan of the rows just landed in raw.<table> (this load, this file)
-- returns the few lines that need a second look (blank, invalid, not an object, or flagged by
-- second_look_when.sql); Python resolves them (UPDATE / DELETE) before the commit.
SELECT source_line, text, coalesce(valid, false)
FROM (
    SELECT source_line, text, valid,
        CASE WHEN valid THEN json_keys(text) END AS keys
    FROM (
        SELECT source_line, record AS text, starts_with(record, '{') AND json_valid(record) AS valid
        FROM raw.@table@
        WHERE load_id = $load_id AND source_file = $file
    )
)
WHERE CASE
        @second_look_when@
    END = 'check'
ORDER BY source_line
