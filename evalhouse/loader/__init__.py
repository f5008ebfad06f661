"""The loader's parts, one job each (evalhouse.load is the public API and says how a load works):

- results.py    what a load reports (FileResult, LoadSummary) and raises (UsageError, LoadError);
- jsonread.py   JSON / YAML read as Python's json reads them, with repairs and reasons;
- prepass.py    reading files without DuckDB: the pre-pass, prefix hashes, gzip archives;
- statements.py the SQL: loader/sql/*.sql read once, slots filled with other fragments, never with data;
- registry.py   raw.files and the identity rules (duplicates, copies that grew, orphans);
- jsonl.py      landing JSONL: direct path, chunked path, appends, gzip archives;
- batch.py      many small files in one statement per batch;
- documents.py  coder-eval documents;
- core.py       Loader, the state of one load, assembled from the above;
- progress.py   the terminal progress bar.
"""
