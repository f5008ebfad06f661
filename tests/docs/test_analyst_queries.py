"""Every ```sql block of docs/analysts.md runs against a demo-built warehouse, read-only, and returns rows
with exactly the columns announced in the `<!-- expect-columns: ... -->` comment above it.
"""
from __future__ import annotations

import re

import duckdb
import pytest

from evalhouse.paths import PROJECT_DIR

GUIDE = PROJECT_DIR / "docs" / "analysts.md"
BLOCK = re.compile(r"<!-- expect-columns: (?P<cols>[^>]*?) -->\s*```sql\n(?P<sql>.*?)```", re.S)


def _queries() -> list[tuple[str, list[str], str]]:
    text = GUIDE.read_text()
    out = []
    for m in BLOCK.finditer(text):
        heading = text.rfind("\n### ", 0, m.start())
        title = text[heading + 5:text.index("\n", heading + 5)].strip() if heading >= 0 else "?"
        out.append((title, [c.strip() for c in m.group("cols").split(",")], m.group("sql")))
    return out


QUERIES = _queries()


def test_guide_has_ten_tested_queries_and_every_sql_block_is_checked():
    assert len(QUERIES) >= 10
    assert GUIDE.read_text().count("```sql") == len(QUERIES), "a ```sql block without <!-- expect-columns -->"


def test_guide_explains_how_to_open_the_analyst_file():
    text = GUIDE.read_text()
    for needle in ("evalhouse.analyst.duckdb", "duckdb -readonly", "read_only=True", "harlequin"):
        assert needle in text


@pytest.mark.parametrize("title,columns,sql", QUERIES, ids=[q[0][:40] for q in QUERIES])
def test_analyst_query_runs_and_returns_rows(docs_build, title, columns, sql):
    con = duckdb.connect(str(docs_build.db), read_only=True)
    try:
        cur = con.execute(sql)
        names = [d[0] for d in cur.description]
        rows = cur.fetchall()
    finally:
        con.close()
    assert names == columns, f"{title}: columns {names}"
    assert rows, f"{title}: no rows on the demo warehouse"


def test_old_mart_names_read_the_same_rows_as_the_canonical_marts(docs_build):
    """docs/CONTRACT.md, "Canonical names": every renamed mart is still there under its old name, a view with
    the canonical mart's columns and rows (a query written against v1 gets the same answer)."""
    import sys
    sys.path.insert(0, str(PROJECT_DIR / "scripts"))
    from gen_mart_aliases import RENAMES
    contract = (PROJECT_DIR / "docs" / "CONTRACT.md").read_text()
    con = duckdb.connect(str(docs_build.db), read_only=True)
    try:
        for old, new in RENAMES.items():
            assert f"| `{old}` | `{new}` |" in contract
            kind = con.execute("select table_type from information_schema.tables where table_schema = 'marts' "
                               "and table_name = ?", [old]).fetchall()
            assert kind == [("VIEW",)], old
            cols = [[r[0] for r in con.execute(f"select * from marts.{t} limit 0").description] for t in (old, new)]
            assert cols[0] == cols[1], old
            n_new = con.execute(f"select count(*) from marts.{new}").fetchone()[0]
            n_both = con.execute(f"select count(*) from (select * from marts.{old} intersect all select * from marts.{new})").fetchone()[0]
            assert n_new > 0 and n_both == n_new, (old, n_both, n_new)
    finally:
        con.close()
