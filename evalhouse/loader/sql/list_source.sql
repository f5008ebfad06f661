-- lines already split (the list path): their numbers and texts as two lists
SELECT unnest($nos::BIGINT[]) AS line_no, unnest($texts::VARCHAR[]) AS text
