"""Column-level lineage for every mart column, computed from dbt's compiled SQL with sqlglot.

dbt draws model-level lineage only. This module parses each model's `compiled_code` from
`manifest.json` (dialect duckdb), qualifies it against the column lists in `catalog.json`, and
follows every mart column through the models it reads, down to

* the raw JSON path in the log record: `raw.big_lines.record $.change_detail[*][1]`
  (the compiled forms of the `json_text` / `json_fragment` / `json_type` / `json_has` /
  `json_array_length` / `json_each` macros are recognised: `json_extract_string(x, '$.a')`,
  `json_extract(x, '$.a')`, `json_type(...)`, `json_exists(...)`, `json_array_length(...)`,
  `json_each(x, '$.a')` (which adds `[*]`), `unnest(json_extract(x, '$.a[*]'))`; paths compose across
  CTEs and models, so a fragment `$.config` read later with `$.primary` ends as `$.config.primary`);
* a raw provenance column (e.g. `raw.big_lines.source_file`);
* a seed column (`raw_json_path = 'seed'`).

Conventions (documented in docs/dbt/overview.md):

* Aggregates trace to their inputs: `sum(x)` -> `x`. Columns that only choose rows (WHERE, JOIN ON,
  GROUP BY keys) are not lineage: sqlglot lists the columns that supply the value.
* A column that reads no column at all (`count(*)`, `row_number()`, a literal such as
  `'big' as source_family`) is a property of the rows it is computed over, so it traces to the
  rows (`upstream_column = '*'`) of every relation its SELECT reads. `*` of a model continues to
  the relations that model reads, down to raw tables or seeds.
* Only a SELECT with no FROM at all yields `lineage_end = 'constant'`; such a mart column fails the
  lineage test, like a column whose SQL sqlglot cannot parse (`lineage_end = 'unparsed'`).

Output: one row per (mart column, upstream step), see `LINEAGE_COLUMNS`.
Command line: `python -m evalhouse.lineage --target DIR [--csv seeds/field_lineage.csv]`.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.lineage import Node, lineage, to_node
from sqlglot.schema import ensure_schema
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, build_scope

DIALECT = "duckdb"
MART_PREFIX = "models/marts/"
LINEAGE_COLUMNS = [
    "mart_model", "mart_column", "depth", "upstream_model", "upstream_column",
    "raw_json_path", "lineage_end", "downstream_model", "downstream_column",
]
# functions whose first argument is a JSON document and second a JSONPath
_JSON_EACH = {"json_each", "json_tree"}


@dataclass(frozen=True)
class Rel:
    """A relation in the warehouse: a dbt model, seed, snapshot or source table."""
    key: str          # "schema.identifier", lower case
    name: str         # display name: model/seed name, or "raw.big_lines" for a source
    kind: str         # model | seed | source | snapshot
    unique_id: str
    path: str         # original_file_path ('' for sources)


@dataclass(frozen=True)
class Edge:
    """Column `column` of a model reads `upstream.upstream_column` (at JSON path `suffix`)."""
    upstream: str            # Rel.key, or '' for a constant
    upstream_column: str     # a column name, '*' for "the rows of", or the literal text for constants
    suffix: str              # JSON path suffix without the leading '$' ('' = the whole value)


# --------------------------------------------------------------------------- manifest / catalog
def _rel_key(schema: str | None, name: str | None) -> str:
    return f"{(schema or '').lower()}.{(name or '').lower()}"


def load_relations(manifest: dict, catalog: dict) -> tuple[dict[str, Rel], dict[str, dict[str, str]]]:
    """Relations by key and their column lists (catalog first, manifest yml columns as fallback)."""
    rels: dict[str, Rel] = {}
    cols: dict[str, dict[str, str]] = {}
    cat_nodes = {**catalog.get("nodes", {}), **catalog.get("sources", {})}
    items = list(manifest.get("nodes", {}).items()) + list(manifest.get("sources", {}).items())
    for uid, node in items:
        rtype = node.get("resource_type")
        if rtype not in ("model", "seed", "source", "snapshot"):
            continue
        ident = node.get("alias") or node.get("identifier") or node.get("name")
        if rtype == "source":
            ident = node.get("identifier") or node.get("name")
        key = _rel_key(node.get("schema"), ident)
        name = f"{node.get('schema')}.{ident}" if rtype == "source" else node["name"]
        rels[key] = Rel(key, name, rtype, uid, node.get("original_file_path", "") if rtype != "source" else "")
        cat = cat_nodes.get(uid)
        if cat and cat.get("columns"):
            ordered = sorted(cat["columns"].values(), key=lambda c: c.get("index", 0))
            cols[key] = {c["name"].lower(): "varchar" for c in ordered}
        elif node.get("columns"):
            cols[key] = {c.lower(): "varchar" for c in node["columns"]}
    return rels, cols


def _schema_for(manifest: dict, rels: dict[str, Rel], cols: dict[str, dict[str, str]]) -> dict:
    """sqlglot schema {database: {schema: {table: {column: type}}}} for every known relation."""
    out: dict = {}
    by_uid = {**manifest.get("nodes", {}), **manifest.get("sources", {})}
    for key, rel in rels.items():
        node = by_uid[rel.unique_id]
        schema, ident = key.split(".", 1)
        db = (node.get("database") or "").lower()
        if key in cols:
            out.setdefault(db, {}).setdefault(schema, {})[ident] = cols[key]
    return out


# --------------------------------------------------------------------------- JSON path helpers
def _path_text(arg: exp.Expression | None) -> str | None:
    if isinstance(arg, exp.JSONPath):
        text = arg.sql(dialect=DIALECT).strip("'")
    elif isinstance(arg, exp.Literal) and arg.is_string:
        text = arg.this
    else:
        return None
    return text if text.startswith("$") else None


def _func_name(f: exp.Expression) -> str:
    if isinstance(f, exp.Anonymous):
        return str(f.this).lower()
    return f.sql_name().lower() if isinstance(f, exp.Func) else ""


def _json_step(parent: exp.Expression, child: exp.Expression) -> str | None:
    """If `parent` is a JSON function applied to `child` with a literal path, the path suffix."""
    if not isinstance(parent, exp.Func):
        return None
    name = _func_name(parent)
    if isinstance(parent, exp.Anonymous):
        args = parent.expressions
        if len(args) < 2 or args[0] is not child:
            return None
        path = _path_text(args[1])
    else:
        if parent.this is not child:
            return None
        path = _path_text(parent.args.get("expression"))
    is_json = name.startswith("json") or isinstance(parent, (exp.JSONExtract, exp.JSONExtractScalar))
    if not is_json or path is None:
        return None
    suffix = path[1:]
    if name in _JSON_EACH or name == "json_keys":
        suffix += "[*]"
    # an object's members, json_extract(x, '$.a.*'), are the same list as json_each's: write it `[*]`
    return suffix[:-2] + "[*]" if suffix.endswith(".*") else suffix


def _paths_applied(expression: exp.Expression, table: str, column: str) -> set[str]:
    """JSON path suffixes applied to `table.column` inside `expression` ('' = used as a whole)."""
    found: set[str] = set()
    bare = False
    for col in expression.find_all(exp.Column):
        if col.name.lower() != column or (table and col.table and col.table.lower() != table):
            continue
        suffix = ""
        node: exp.Expression = col
        while True:
            parent = node.parent
            while isinstance(parent, (exp.Cast, exp.TryCast, exp.Paren)) and parent.this is node:
                node, parent = parent, parent.parent
            if parent is None:
                break
            step = _json_step(parent, node)
            if step is None:
                break
            suffix += step
            node = parent
        if suffix:
            found.add(suffix)
        else:
            bare = True
    if not found and bare:
        found.add("")
    # a guard such as json_type(x, '$.a') beside json_each(x, '$.a') adds nothing: keep the longest
    return {p for p in found if not any(q != p and q.startswith(p) for q in found)} or {""}


# --------------------------------------------------------------------------- one model
def _physical_tables(scope: Scope, seen: set[int] | None = None) -> set[tuple[str, str]]:
    """(schema, table) of every physical table a scope reads, through CTEs and subqueries."""
    seen = seen if seen is not None else set()
    if id(scope) in seen:
        return set()
    seen.add(id(scope))
    out: set[tuple[str, str]] = set()
    for src in scope.sources.values():
        if isinstance(src, Scope):
            out |= _physical_tables(src, seen)
        elif isinstance(src, exp.Table) and isinstance(src.this, exp.Identifier):
            out.add((src.db.lower(), src.name.lower()))
    for sub in scope.set_operation_scopes:
        out |= _physical_tables(sub, seen)
    return out


def model_edges(sql: str, schema: dict) -> dict[str, set[Edge]]:
    """Direct upstream edges of every output column of one compiled model (plus '*': its rows)."""
    parsed = sqlglot.parse_one(sql, read=DIALECT)
    sch = ensure_schema(schema, dialect=DIALECT)
    qualified = qualify(parsed, dialect=DIALECT, schema=sch, validate_qualify_columns=False,
                        identify=False)
    root = build_scope(qualified)
    if root is None:
        raise ValueError("not a query")
    ctx = _Ctx(root, sch)
    nodes = lineage(None, qualified, schema=sch, dialect=DIALECT, scope=root, trim_selects=False)
    out: dict[str, set[Edge]] = {}
    for column, node in nodes.items():
        edges: set[Edge] = set()
        _walk(node, "", edges, ctx)
        out[column.lower()] = edges
    out["*"] = _rows_of_scope(root, ctx)
    return out


class _Ctx:
    def __init__(self, root: Scope, schema):
        self.root = root
        self.schema = schema
        self.scopes = list(root.traverse())
        self.by_id = {id(s.expression): s for s in self.scopes}


def _inside(node: exp.Expression, container: exp.Expression) -> bool:
    while node is not None:
        if node is container:
            return True
        node = node.parent
    return False


def _rows_of_scope(scope: Scope, ctx: _Ctx) -> set[Edge]:
    """What the rows of a SELECT come from: every physical table it reads (column '*'), and for an
    unnested JSON list, the list it unnests (e.g. record $.change_detail[*]). Both unnest forms are
    recognised: the table function `json_each(x, '$.a')` and `unnest(json_extract(x, '$.a[*]'))`
    (or `json_keys(x, '$.a')`) in the SELECT list of a lateral, which is what the macros compile to."""
    edges = {Edge(f"{s}.{t}", "*", "") for s, t in _physical_tables(scope)}
    for table in scope.expression.find_all(exp.Table):
        func = table.this
        if not isinstance(func, exp.Func) or _func_name(func) not in _JSON_EACH:
            continue
        args = func.expressions if isinstance(func, exp.Anonymous) else [func.this, func.args.get("expression")]
        if len(args) < 2:
            continue
        col = args[0]
        while isinstance(col, (exp.Cast, exp.TryCast, exp.Paren)):
            col = col.this
        path = _path_text(args[1])
        if isinstance(col, exp.Column) and path is not None:
            _unnested_list(col, path[1:] + "[*]", table, ctx, edges)
    for unnest in scope.expression.find_all(exp.Explode, exp.Unnest):
        for col in unnest.find_all(exp.Column):
            for suffix in _paths_applied(unnest, col.table.lower(), col.name.lower()):
                if suffix:
                    _unnested_list(col, suffix, unnest, ctx, edges)
    if not edges:
        edges.add(Edge("", scope.expression.sql(dialect=DIALECT)[:80], ""))
    return edges


def _unnested_list(col: exp.Column, suffix: str, anchor: exp.Expression, ctx: _Ctx, edges: set[Edge]) -> None:
    """Add the edge of the JSON list at `col` + `suffix`, read where `anchor` sits, to `edges`."""
    owners = [s for s in ctx.scopes if col.table in s.sources and _inside(anchor, s.expression)]
    if not owners:
        return
    src = min(owners, key=_depth).sources[col.table]
    if isinstance(src, exp.Table) and isinstance(src.this, exp.Identifier):
        edges.add(Edge(f"{src.db.lower()}.{src.name.lower()}", col.name.lower(), suffix))
    elif isinstance(src, Scope):
        try:
            node = to_node(col.name, src, DIALECT, ctx.schema, trim_selects=False)
        except Exception:
            return
        _walk(node, suffix, edges, ctx)


def _depth(scope: Scope) -> int:
    d = 0
    while scope.parent is not None:
        scope, d = scope.parent, d + 1
    return -d   # innermost first under min()


def _walk(node: Node, suffix: str, edges: set[Edge], ctx: _Ctx) -> None:
    if isinstance(node.source, exp.Table) and not node.downstream:
        table = node.source
        if isinstance(table.this, exp.Identifier):
            column = node.name.split(".")[-1].lower()
            edges.add(Edge(f"{table.db.lower()}.{table.name.lower()}", column, suffix))
        return
    children = [c for c in node.downstream if not isinstance(c.source, exp.Placeholder)]
    if not children:
        if not isinstance(node.source, exp.Placeholder):
            scope = ctx.by_id.get(id(node.source))
            if scope is None:
                edges.add(Edge("", node.expression.sql(dialect=DIALECT)[:80], ""))
            else:
                rows = _rows_of_scope(scope, ctx)
                if all(not e.upstream for e in rows):   # no FROM: a true constant
                    rows = {Edge("", node.expression.sql(dialect=DIALECT)[:80], "")}
                edges |= rows
        return
    for child in children:
        parts = child.name.split(".")
        table, column = (parts[-2].lower() if len(parts) > 1 else ""), parts[-1].lower()
        for step in _paths_applied(node.expression, table, column):
            _walk(child, step + suffix, edges, ctx)


# --------------------------------------------------------------------------- whole project
@dataclass
class LineageResult:
    rows: list[dict]
    unparsed: dict[str, str]        # model name -> error
    rels: dict[str, Rel]


def compute(manifest: dict, catalog: dict, mart_prefix: str = MART_PREFIX) -> LineageResult:
    rels, cols = load_relations(manifest, catalog)
    schema = _schema_for(manifest, rels, cols)
    nodes = manifest.get("nodes", {})
    edges: dict[str, dict[str, set[Edge]]] = {}
    unparsed: dict[str, str] = {}
    for key, rel in rels.items():
        if rel.kind not in ("model", "snapshot"):
            continue
        node = nodes[rel.unique_id]
        sql = node.get("compiled_code")
        if not sql:
            unparsed[rel.name] = "no compiled_code in the manifest (run dbt compile / docs generate)"
            continue
        try:
            edges[key] = model_edges(sql, schema)
        except Exception as exc:  # sqlglot cannot parse or qualify this model: say so, never guess
            unparsed[rel.name] = f"{type(exc).__name__}: {str(exc)[:200]}"

    rows: list[dict] = []
    marts = sorted((r for r in rels.values() if r.kind == "model" and r.path.startswith(mart_prefix)),
                   key=lambda r: r.name)
    for mart in marts:
        columns = list(cols.get(mart.key, {})) or sorted(edges.get(mart.key, {}))
        for column in columns:
            rows.extend(_chain(mart, column, rels, edges, unparsed))
    rows.sort(key=lambda r: (r["mart_model"], r["mart_column"], int(r["depth"]), r["upstream_model"],
                             r["upstream_column"], r["raw_json_path"], r["downstream_model"],
                             r["downstream_column"], r["lineage_end"]))
    return LineageResult(rows, unparsed, rels)


def _chain(mart: Rel, column: str, rels: dict[str, Rel], edges: dict, unparsed: dict) -> list[dict]:
    rows: dict[tuple, dict] = {}

    def emit(depth, up_name, up_col, path, end, down_name, down_col):
        row = {"mart_model": mart.name, "mart_column": column, "depth": depth,
               "upstream_model": up_name, "upstream_column": up_col, "raw_json_path": path,
               "lineage_end": end, "downstream_model": down_name, "downstream_column": down_col}
        rows[tuple(row.values())] = row

    def visit(rel_key: str, col: str, suffix: str, depth: int, stack: tuple):
        rel = rels[rel_key]
        if rel_key not in edges:
            emit(depth, rel.name, col, "", "unparsed", rel.name, col)
            return
        model_edges_ = edges[rel_key].get(col)
        if not model_edges_:
            emit(depth, rel.name, col, "", "unparsed", rel.name, col)
            return
        for e in model_edges_:
            if not e.upstream:
                emit(depth, "constant", e.upstream_column, "", "constant", rel.name, col)
                continue
            up = rels.get(e.upstream)
            full = (e.suffix + suffix) if e.upstream_column != "*" else ""
            if up is None:   # a table dbt does not know (e.g. read directly): still a real end
                emit(depth, e.upstream, e.upstream_column, "$" + full if full else "", "external",
                     rel.name, col)
                continue
            if up.kind == "seed":
                emit(depth, up.name, e.upstream_column, "seed", "seed", rel.name, col)
            elif up.kind == "source":
                if e.upstream_column == "*":
                    end = "raw_rows"
                elif full:
                    end = "raw_json"
                else:
                    end = "raw_column"
                emit(depth, up.name, e.upstream_column, "$" + full if full else "", end, rel.name, col)
            else:
                emit(depth, up.name, e.upstream_column, "", "", rel.name, col)
                step = (e.upstream, e.upstream_column, full)
                if step in stack:
                    continue
                visit(e.upstream, e.upstream_column, full, depth + 1, stack + (step,))

    visit(mart.key, column, "", 1, ())
    return list(rows.values())


# --------------------------------------------------------------------------- outputs
def to_csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=LINEAGE_COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: r[k] for k in LINEAGE_COLUMNS})
    return buf.getvalue()


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as fh:
        return [dict(r) for r in csv.DictReader(fh)]


def ends_ok(rows: list[dict]) -> dict[tuple[str, str], set[str]]:
    """(mart_model, mart_column) -> the set of lineage ends reached."""
    out: dict[tuple[str, str], set[str]] = {}
    for r in rows:
        if r["lineage_end"]:
            out.setdefault((r["mart_model"], r["mart_column"]), set()).add(r["lineage_end"])
    return out


GOOD_ENDS = {"raw_json", "raw_column", "raw_rows", "seed"}


def columns_without_lineage(rows: list[dict], mart_columns: list[tuple[str, str]]) -> list[str]:
    """Mart columns whose lineage reaches neither a raw table nor a seed on some path."""
    ends = ends_ok(rows)
    bad = []
    for key in mart_columns:
        got = ends.get(key, set())
        if not got or not got <= GOOD_ENDS:
            bad.append(f"{key[0]}.{key[1]}: ends {sorted(got) or 'none'}")
    return bad


# How a lineage row that ends outside the models reads in the field reference (by lineage_end).
_END_LABELS = {
    "seed": "`{model}.{column}` (seed)",
    "raw_json": "`{model}.{column}` JSON path `{path}`",
    "raw_rows": "rows of `{model}` (raw)",
    "raw_column": "`{model}.{column}` (raw column)",
    "constant": "constant `{column}`",
    "unparsed": "`{model}.{column}` (SQL not parsed)",
}


def describe(rows: list[dict], mart_model: str, mart_column: str, max_lines: int = 40) -> str:
    """Markdown: the lineage tree of one mart column (appended to its docs description)."""
    mine = [r for r in rows if r["mart_model"] == mart_model and r["mart_column"] == mart_column]
    children: dict[tuple[str, str], list[dict]] = {}
    for r in mine:
        children.setdefault((r["downstream_model"], r["downstream_column"]), []).append(r)
    lines: list[str] = []

    def label(r: dict) -> str:
        end = _END_LABELS.get(r["lineage_end"])
        if end:
            return end.format(model=r["upstream_model"], column=r["upstream_column"], path=r["raw_json_path"])
        col = "rows" if r["upstream_column"] == "*" else r["upstream_column"]
        return f"`{r['upstream_model']}.{col}`"

    def walk(key: tuple[str, str], indent: int, seen: set):
        for r in sorted(children.get(key, []), key=lambda r: (r["upstream_model"], r["upstream_column"],
                                                                r["raw_json_path"])):
            if len(lines) >= max_lines:
                return
            lines.append("  " * indent + "- " + label(r))
            nxt = (r["upstream_model"], r["upstream_column"])
            if not r["lineage_end"] and nxt not in seen:
                walk(nxt, indent + 1, seen | {nxt})

    walk((mart_model, mart_column), 0, {(mart_model, mart_column)})
    if len(lines) >= max_lines:
        lines.append(f"- ... (full chain in `marts.field_lineage` where mart_model = '{mart_model}')")
    ends = sorted({label(r) for r in mine if r["lineage_end"]})
    head = f"**Lineage** (computed from the compiled SQL; `marts.field_lineage`): `{mart_model}.{mart_column}` <- " \
        + ", ".join(ends)
    return head + "\n\n" + "\n".join(lines)


def load_target(target: Path) -> tuple[dict, dict]:
    manifest = json.loads((Path(target) / "manifest.json").read_text())
    catalog = json.loads((Path(target) / "catalog.json").read_text())
    return manifest, catalog


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", required=True, help="dbt target dir with manifest.json + catalog.json")
    ap.add_argument("--csv", help="write the lineage rows here (e.g. seeds/field_lineage.csv)")
    ap.add_argument("--check", action="store_true", help="exit 1 if --csv differs or a column lacks lineage")
    args = ap.parse_args(argv)
    manifest, catalog = load_target(Path(args.target))
    res = compute(manifest, catalog)
    text = to_csv(res.rows)
    for name, err in sorted(res.unparsed.items()):
        print(f"lineage: could not parse {name}: {err}", file=sys.stderr)
    status = 0
    if args.csv and args.check:
        if not Path(args.csv).exists() or Path(args.csv).read_text() != text:
            print(f"lineage: {args.csv} is stale; regenerate with `make lineage`", file=sys.stderr)
            status = 1
    elif args.csv:
        Path(args.csv).write_text(text)
        print(f"lineage: wrote {len(res.rows)} rows to {args.csv}")
    else:
        sys.stdout.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
