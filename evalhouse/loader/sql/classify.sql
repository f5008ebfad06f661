-- Split + classify in one statement, materialised once: numbered lines in (the source: split_source.sql,
-- list_source.sql or batch_source.sql), each line's kind out ('blank', 'check' or 'ok').
-- carry: columns passed through (batch_source.sql's "fid, "). Nested CASEs, not AND: json_type /
-- json_keys must never see a line json_valid rejected. The top-level keys are computed once (column `keys`,
-- NULL for blank, invalid and non-object lines).
CREATE OR REPLACE TEMP TABLE _eh_cls AS WITH l AS (@source@
), s AS (
    SELECT @carry@line_no, CASE WHEN ends_with(text, chr(13)) THEN rtrim(text, chr(13)) ELSE text END AS text
    FROM l
), v AS (
    SELECT @carry@line_no, text, regexp_matches(text, '[^ \t\r]') AS nonblank, json_valid(text) AS valid
    FROM s
), k AS (
    SELECT @carry@line_no, text, nonblank,
        CASE WHEN NOT nonblank OR NOT valid THEN NULL
             WHEN json_type(text) <> 'OBJECT' THEN NULL
             ELSE json_keys(text) END AS keys
    FROM v
)
SELECT @carry@line_no, text,
    CASE
        WHEN NOT nonblank THEN 'blank'
        @second_look_when@
    END AS kind
FROM k
