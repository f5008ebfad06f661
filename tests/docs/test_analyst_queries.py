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
