"""One demo-built warehouse + generated docs site shared by every docs test (session scope).

The warehouse is what `make docs` documents: the deterministic sample logs and the shipped coder-eval
fixtures loaded with the real loader into a fresh file, `dbt seed` + `dbt run`, then
`dbt docs generate --static` and the lineage-patched site. Nothing outside tmp is written.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from evalhouse import docs_site
from evalhouse import lineage as L


@dataclass
class DocsBuild:
    db: Path
    target: Path
    site: Path
    manifest: dict          # as dbt wrote it (before the lineage patch)
    catalog: dict
    lineage: L.LineageResult


@pytest.fixture(scope="session")
def docs_build(tmp_path_factory) -> DocsBuild:
    work = tmp_path_factory.mktemp("docs_build")
    db = docs_site.build_warehouse(work, with_data=True)
    target = work / "target"
    docs_site.generate(db, target, build=True)
    manifest, catalog = L.load_target(target)
    res = L.compute(manifest, catalog)
    site = work / "site"
    docs_site.write_site(target, site, res.rows)
    return DocsBuild(db, target, site / "index.html", json.loads(json.dumps(manifest)), catalog, res)
