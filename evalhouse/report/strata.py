"""Forest plots and their tables from one declaration: a mart, its key, the measures with their intervals.

`Spec` says which mart rows a figure shows and how; `build()` reads them, and returns a `Figure` whose every
number is a `Num` naming its mart row (the key columns and their values), so it traces back.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .figures import Panel, forest
from .content import Figure, Part, Table, Warehouse
from .numbers import Interval, Num

HOLM_ALPHA = 0.05


@dataclass
class Measure:
    label: str
    est: str
    low: str
    high: str
    n: str | None = None            # the denominator column (observations, or pairs)
    clusters: str | None = None     # independent units behind the interval
    kind: str = "rate"              # rate (a share in [0, 1]), diff (a paired difference), usd
    p: str | None = None            # paired: raw p-value, Holm- and BH-adjusted within the row's family
    p_holm: str | None = None
    p_bh: str | None = None


@dataclass
class Spec:
    id: str
    title: str
    mart: str
    keys: list[str]
    measures: list[Measure]
    population: str                 # who is in it, in words
    cluster_unit: str               # the unit of independence, in words
    interval: str                   # how the interval is computed, in words
    where: str = ""                 # the population as SQL
    order: list[str] | None = None
    paired: bool = False
    extra: list[tuple[str, str]] = field(default_factory=list)   # more (column, kind) for the table
    label_keys: list[str] | None = None   # keys shown in the row label (default: all keys)


def label(row: dict, keys: list[str]) -> str:
    parts = []
    for k in keys:
        v = row.get(k)
        if isinstance(v, bool):
            word = k.removeprefix("with_")
            parts.append(word if v else f"no {word}")
        elif v is not None:
            parts.append(str(v))
    return " · ".join(parts)


def _num(spec: Spec, row: dict, column: str | None, kind: str) -> Num | None:
    if column is None or column not in row:
        return None
    where = tuple((k, row.get(k)) for k in spec.keys)
    return Num(spec.mart, column, where, row[column], kind)


def _interval(spec: Spec, row: dict, m: Measure) -> Interval:
    kind = m.kind
    return Interval(_num(spec, row, m.est, kind), _num(spec, row, m.low, kind), _num(spec, row, m.high, kind),
                    _num(spec, row, m.n, "int"), _num(spec, row, m.clusters, "int"))


def _survives(row: dict, m: Measure) -> bool:
    p = row.get(m.p_holm) if m.p_holm else None
    return p is not None and p < HOLM_ALPHA


def _columns(spec: Spec) -> list[str]:
    cols = list(spec.keys)
    for m in spec.measures:
        cols += [c for c in (m.est, m.low, m.high, m.n, m.clusters, m.p, m.p_holm, m.p_bh) if c]
    return cols + [c for c, _ in spec.extra] + ["first_stamp", "last_stamp", "family"]


def caption(wh: Warehouse, spec: Spec, n_rows: int) -> list[Part]:
    parts: list[Part] = [f"{spec.population}. Mart {spec.mart}: ",
                         wh.aggregate(spec.mart, "count(*)", spec.where, "int"),
                         " comparisons" if spec.paired else " strata"]
    first = spec.measures[0]
    if first.n and first.n in wh.columns(spec.mart):
        parts += [f"; {'pairs' if spec.paired else 'n'} = ",
                  wh.aggregate(spec.mart, f"sum({first.n})", spec.where, "int"),
                  f" ({first.n}, summed over the rows)"]
    cols = wh.columns(spec.mart)
    if "first_stamp" in cols and "last_stamp" in cols:
        parts += ["; stamps ", wh.aggregate(spec.mart, "min(first_stamp)", spec.where, "stamp"), " to ",
                  wh.aggregate(spec.mart, "max(last_stamp)", spec.where, "stamp")]
    parts += [f". Unit of clustering: {spec.cluster_unit}. Intervals: {spec.interval}."]
    if spec.paired:
        parts += [f" Filled markers: the difference survives Holm's adjustment at {HOLM_ALPHA} within its "
                  "family (the `family` column); hollow: it does not."]
    return parts


MAX_FOREST_ROWS = 80     # a taller forest is drawn in parts (a PDF page is at most 200 inches high)


def build(wh: Warehouse, spec: Spec) -> list[Figure]:
    """The figure (in parts when it has more than MAX_FOREST_ROWS rows) with its table on the first part;
    none when the mart is absent or holds no row of the population."""
    if not wh.has(spec.mart):
        return []
    rows = wh.rows(spec.mart, _columns(spec), spec.where, spec.order or spec.keys)
    if not rows:
        return []
    header = list(spec.keys)
    for m in spec.measures:
        header += [m.label, f"n ({m.n})" if m.n else "n", "C"]
        if spec.paired:
            header += ["p", "p Holm", "p BH"]
    header += [c for c, _ in spec.extra]
    body = []
    for r in rows:
        cells = [_num(spec, r, k, "text") for k in spec.keys]
        for m in spec.measures:
            iv = _interval(spec, r, m)
            cells += [iv, iv.n, iv.clusters]
            if spec.paired:
                cells += [_num(spec, r, m.p, "p"), _num(spec, r, m.p_holm, "p"), _num(spec, r, m.p_bh, "p")]
        cells += [_num(spec, r, c, kind) for c, kind in spec.extra]
        body.append(cells)
    table = Table(spec.id, spec.title, header, body)
    cap = caption(wh, spec, len(rows))
    parts = [rows[i:i + MAX_FOREST_ROWS] for i in range(0, len(rows), MAX_FOREST_ROWS)]
    figs = []
    for k, part in enumerate(parts, start=1):
        suffix = [] if len(parts) == 1 else [f" Part {k} of {len(parts)}: rows {(k - 1) * MAX_FOREST_ROWS + 1} to "
                                             f"{(k - 1) * MAX_FOREST_ROWS + len(part)} of the table."]
        figs.append(Figure(spec.id if k == 1 else f"{spec.id}_part{k}",
                           spec.title if k == 1 else f"{spec.title} (part {k})",
                           cap + suffix, _drawer(spec, part), table if k == 1 else None))
    return figs


def _drawer(spec: Spec, rows: list[dict]):
    def draw():
        labels = [label(r, spec.label_keys or spec.keys) for r in rows]
        panels = [Panel(title=m.label, est=[r.get(m.est) for r in rows], low=[r.get(m.low) for r in rows],
                        high=[r.get(m.high) for r in rows], unit_range=m.kind == "rate",
                        reference=0.0 if m.kind == "diff" else None,
                        strong=[_survives(r, m) for r in rows] if spec.paired else None)
                  for m in spec.measures]
        return forest(labels, panels)
    return draw
