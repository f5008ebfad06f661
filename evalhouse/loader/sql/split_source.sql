-- the text path: one chunk string in ($chunk, its first line numbered $base + 1), numbered lines out
SELECT CAST($base AS BIGINT) + t.ord AS line_no, t.part AS text
FROM unnest(string_split($chunk, chr(10))) WITH ORDINALITY AS t(part, ord)
