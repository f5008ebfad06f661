-- inspect_ai log members (inspect.py): a rewritten log's rows go first
DELETE FROM raw.inspect_members WHERE source_file = $p
