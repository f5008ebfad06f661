"""`make docs` / `make docs-serve` / `make lineage`: the static docs site with column-level lineage.

    python -m evalhouse.docs_site build  [--site docs/site] [--work target/docs_build] [--db FILE] [--no-data]
    python -m evalhouse.docs_site lineage [--check]     # regenerate (or check) seeds/lineage/field_lineage_computed.csv
    python -m evalhouse.docs_site serve  [--site docs/site] [--port 8080]   # binds 127.0.0.1 only

`build` works offline: it builds a scratch warehouse in the work dir (the demo sample logs and the
shipped coder-eval fixtures, or a copy of --db), runs `dbt docs generate --static`, computes the
lineage of every mart column from the compiled SQL (evalhouse.lineage), appends each mart column's
lineage to its description in the manifest, and writes <site>/index.html (one self-contained page,
manifest and catalog inlined, the same way dbt writes static_index.html) plus the patched
manifest.json / catalog.json beside it. The working warehouse (./evalhouse.duckdb) is never touched.
"""
from __future__ import annotations

import argparse
import functools
import html
import http.server
import json
import re
import shutil
import sys
from pathlib import Path

from . import lineage as L
from .dbt_runner import run_dbt
from .paths import PROJECT_DIR
from .schema import init_warehouse

LINEAGE_CSV = PROJECT_DIR / "seeds" / "lineage" / "field_lineage_computed.csv"
DEFAULT_SITE = PROJECT_DIR / "docs" / "site"
DEFAULT_WORK = PROJECT_DIR / "target" / "docs_build"
LINEAGE_MARK = "\n\n**Lineage**"
GUIDES = ("analysts.md", "statistics.md", "architecture.md", "report.md", "spark.md")   # copied beside index.html as .html


def _say(msg: str) -> None:
    print(f"evalhouse docs: {msg}", file=sys.stderr, flush=True)


def _dbt(args: list[str], db: Path, target: Path, required: bool = True) -> bool:
    proc = run_dbt(args, db=db, target_path=target, capture=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout or "").splitlines()[-25:])
        if required:
            raise RuntimeError(f"dbt {' '.join(args)} failed:\n{tail}\n{proc.stderr[-2000:]}")
        _say(f"dbt {' '.join(args)} reported failures (continuing; the docs show what was built):\n{tail}")
    return proc.returncode == 0


def build_warehouse(work: Path, db: Path | None = None, with_data: bool = True) -> Path:
    """A scratch warehouse for the docs: a copy of `db`, else the demo data loaded into a fresh file."""
    work.mkdir(parents=True, exist_ok=True)
    out = work / "docs.duckdb"
    for p in (out, out.with_name(out.name + ".wal")):
        p.unlink(missing_ok=True)
    if db is not None:
        shutil.copyfile(db, out)
        return out
    init_warehouse(out)
    if with_data:
        from .demo import write_demo_data
        from .load import load_paths
        data = work / "data"
        write_demo_data(data)
        load_paths([data], out)
    return out


def generate(db: Path, target: Path, build: bool = True) -> None:
    """Seeds + models in one `dbt build` without tests (those are `make test`'s job), then
    `dbt docs generate --static`."""
    if build:
        _dbt(["build", "--quiet", "--exclude-resource-type", "test", "--exclude-resource-type", "unit_test"],
             db, target, required=False)
    _dbt(["docs", "generate", "--static", "--quiet"], db, target, required=True)


def patch_manifest(manifest: dict, catalog: dict, rows: list[dict]) -> int:
    """Append the computed lineage to every mart column's description. Returns columns patched."""
    rels, cols = L.load_relations(manifest, catalog)
    patched = 0
    for rel in rels.values():
        if rel.kind != "model" or not rel.path.startswith(L.MART_PREFIX):
            continue
        node = manifest["nodes"][rel.unique_id]
        mcols = node.setdefault("columns", {})
        lower = {k.lower(): k for k in mcols}
        for column in cols.get(rel.key, {}):
            text = L.describe(rows, rel.name, column)
            key = lower.get(column, column)
            entry = mcols.setdefault(key, {"name": key, "description": "", "meta": {}, "data_type": None,
                                           "constraints": [], "quote": None, "tags": [], "config": {}})
            desc = (entry.get("description") or "").split(LINEAGE_MARK)[0].rstrip()
            entry["description"] = desc + LINEAGE_MARK + text[len("**Lineage**"):]
            patched += 1
    return patched


def rule_index(manifest: dict) -> str:
    """Markdown table: each rule id -> its dbt tests (with severity) -> its pytest negative controls."""
    tests: dict[str, list[str]] = {}
    for node in manifest.get("nodes", {}).values():
        m = re.match(r"^r(\d\d)_", node.get("name", ""))
        if node.get("resource_type") == "test" and m:
            sev = (node.get("config") or {}).get("severity", "error").lower()
            tests.setdefault(f"R{m.group(1)}", []).append(f"`{node['name']}` ({sev})")
    controls: dict[str, list[str]] = {}
    for path in sorted((PROJECT_DIR / "tests").rglob("test_*.py")):
        for name, ids in re.findall(r"def (test_((?:r\d\d_)+)\w*)", path.read_text(errors="replace")):
            for rid in re.findall(r"r(\d\d)_", ids):     # test_r03_r04_...: one control, several rules
                controls.setdefault(f"R{rid}", []).append(f"`{path.name}::{name}`")
    lines = ["", "## Rule tests and their negative controls (generated by `make docs`)", "",
             "| rule | dbt tests (severity) | pytest negative controls |", "|---|---|---|"]
    for i in range(1, 27):
        rid = f"R{i:02d}"
        lines.append(f"| **{rid}** | {', '.join(sorted(set(tests.get(rid, [])))) or '**none**'} | "
                     f"{', '.join(sorted(set(controls.get(rid, [])))) or '**none**'} |")
    return "\n".join(lines) + "\n"


def static_page(manifest: dict, catalog: dict) -> str:
    """The single-file docs page, inlined exactly like dbt's own static_index.html."""
    from dbt.task.docs import DOCS_INDEX_FILE_PATH
    page = Path(DOCS_INDEX_FILE_PATH).read_text(encoding="utf-8")
    # json.dumps escapes '<' nowhere; guard against a '</script>' inside a description
    m = json.dumps(manifest).replace("</", "<\\/")
    c = json.dumps(catalog).replace("</", "<\\/")
    page = page.replace('"MANIFEST.JSON INLINE DATA"', m, 1)
    return page.replace('"CATALOG.JSON INLINE DATA"', c, 1)


def write_site(target: Path, site: Path, rows: list[dict]) -> Path:
    manifest, catalog = L.load_target(target)
    n = patch_manifest(manifest, catalog, rows)
    for doc in manifest.get("docs", {}).values():
        if doc.get("name") == "__overview__" and doc.get("package_name") == manifest["metadata"].get("project_name"):
            doc["block_contents"] = doc["block_contents"].rstrip() + "\n" + rule_index(manifest)
    site.mkdir(parents=True, exist_ok=True)
    (site / "manifest.json").write_text(json.dumps(manifest))
    (site / "catalog.json").write_text(json.dumps(catalog))
    index = site / "index.html"
    index.write_text(static_page(manifest, catalog), encoding="utf-8")
    for guide in GUIDES:
        src = PROJECT_DIR / "docs" / guide
        if src.exists():
            (site / guide.replace(".md", ".html")).write_text(_text_page(src), encoding="utf-8")
    _say(f"lineage appended to {n} mart column descriptions")
    return index


def _text_page(md: Path) -> str:
    """The guides beside the docs page, readable offline (markdown shown as text, no renderer needed)."""
    title = html.escape(md.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip() or md.name)
    body = html.escape(md.read_text(encoding="utf-8"))
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            "<body style='max-width:60rem;margin:2rem auto;font-family:sans-serif'>"
            "<p><a href='index.html'>&larr; evalhouse docs</a></p>"
            f"<pre style='white-space:pre-wrap;font-size:14px;line-height:1.45'>{body}</pre></body></html>")


def cmd_build(args) -> int:
    work = Path(args.work).resolve()
    target = work / "target"
    db = build_warehouse(work, Path(args.db).resolve() if args.db else None, with_data=not args.no_data)
    generate(db, target, build=True)
    manifest, catalog = L.load_target(target)
    res = L.compute(manifest, catalog)
    for name, err in sorted(res.unparsed.items()):
        _say(f"lineage: could not parse {name}: {err}")
    text = L.to_csv(res.rows)
    if not LINEAGE_CSV.exists() or LINEAGE_CSV.read_text() != text:
        if args.check:
            _say(f"{LINEAGE_CSV.relative_to(PROJECT_DIR)} is stale: run `make lineage` (or `make docs`)")
            return 1
        LINEAGE_CSV.write_text(text)
        _say(f"updated {LINEAGE_CSV.relative_to(PROJECT_DIR)} ({len(res.rows)} rows); reloading marts.field_lineage")
        # a separate target dir: these runs must not overwrite the manifest the site is made from
        reseed = work / "target_reseed"
        _dbt(["seed", "--quiet", "--select", "field_lineage_computed"], db, reseed, required=True)
        _dbt(["run", "--quiet", "--select", "field_lineage"], db, reseed, required=False)
    index = write_site(target, Path(args.site).resolve(), res.rows)
    print(f"docs: {index}")
    return 0


def cmd_lineage(args) -> int:
    args.site = args.site or str(DEFAULT_SITE)
    return cmd_build(args)


def cmd_serve(args) -> int:
    site = Path(args.site).resolve()
    if not (site / "index.html").exists():
        _say(f"{site}/index.html not found: run `make docs` first")
        return 1
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as httpd:
        print(f"serving {site} on http://127.0.0.1:{httpd.server_address[1]}/ (Ctrl-C to stop)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evalhouse.docs_site", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("build", "lineage"):
        p = sub.add_parser(name)
        p.add_argument("--site", default=str(DEFAULT_SITE), help="output dir for index.html")
        p.add_argument("--work", default=str(DEFAULT_WORK), help="scratch dir (warehouse copy, dbt target)")
        p.add_argument("--db", help="document this warehouse (copied) instead of a fresh demo build")
        p.add_argument("--no-data", action="store_true", help="build empty models (faster; no sample data)")
        p.add_argument("--check", action="store_true", help="fail instead of rewriting a stale lineage CSV")
    s = sub.add_parser("serve")
    s.add_argument("--site", default=str(DEFAULT_SITE))
    s.add_argument("--port", type=int, default=8080)
    args = ap.parse_args(argv)
    if args.cmd == "serve":
        return cmd_serve(args)
    if args.cmd == "lineage":
        args.no_data = True if not args.db else args.no_data
        return cmd_lineage(args)
    return cmd_build(args)


if __name__ == "__main__":
    sys.exit(main())
