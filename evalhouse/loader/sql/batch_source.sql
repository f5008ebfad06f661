-- many small files at once (batch.py): each line tagged with its file's index in the batch
SELECT unnest($fids::INTEGER[]) AS fid, unnest($nos::BIGINT[]) AS line_no, unnest($texts::VARCHAR[]) AS text
