"""Numbers with provenance: every figure a report prints is a `Num` that names the mart row it comes from.

A `Num` is `SELECT <expr> FROM <mart> WHERE <where>`: for a cell of a table the expression is a column and
the filter is the row's key; for a caption total it is an aggregate (`sum(n_runs)`) over the section's
population. The report writes every `Num` to numbers.json, and tests re-run the query.
"""
from __future__ import annotations

import datetime as _dt
import decimal
import math
from dataclasses import dataclass, field


@dataclass
class Num:
    mart: str                                  # "marts.big_rates"
    expr: str                                  # a column, or an aggregate over the filtered rows
    where: tuple[tuple[str, object], ...]      # key columns and their values (NULL-safe equality)
    value: object
    kind: str = "float"                        # how it prints: rate, diff, usd, int, p, float, stamp, text
    population: str = ""                       # an extra SQL filter (the section's population), for aggregates
    id: str = field(default="", compare=False)  # assigned when the report is assembled

    def text(self) -> str:
        return fmt(self.value, self.kind)

    def to_json(self) -> dict:
        return {"id": self.id, "mart": self.mart, "expr": self.expr,
                "where": [[k, plain(v)] for k, v in self.where], "population": self.population,
                "value": plain(self.value), "kind": self.kind, "text": self.text()}


@dataclass
class Interval:
    """An estimate with its 95% interval and its denominator, printed `0.82 [0.71, 0.90]`."""
    est: Num
    low: Num
    high: Num
    n: Num | None = None           # the denominator: observations (or pairs)
    clusters: Num | None = None    # independent units

    def text(self) -> str:
        if self.est.value is None:
            return "—"
        if self.low.value is None or self.high.value is None:
            return f"{self.est.text()} [no interval]"
        return f"{self.est.text()} [{self.low.text()}, {self.high.text()}]"

    def nums(self) -> list[Num]:
        return [x for x in (self.est, self.low, self.high, self.n, self.clusters) if x is not None]


def plain(v):
    """A value as JSON carries it."""
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, (_dt.datetime, _dt.date)):
        return v.isoformat()
    return v


def fmt(v, kind: str = "float") -> str:
    """How a report prints a value of each kind (NULL is an em dash, never 0)."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if kind == "text":
        return str(v)
    if kind == "stamp":
        if isinstance(v, _dt.datetime):
            return v.strftime("%Y-%m-%d %H:%M")
        return str(v)[:16]
    v = float(v) if isinstance(v, decimal.Decimal) else v
    if kind == "int":
        return f"{int(v):,}"
    if kind == "rate":
        return f"{v:.2f}"
    if kind == "diff":
        return f"{v:+.3f}"
    if kind == "p":
        return "<0.001" if v < 0.001 else f"{v:.3f}"
    if kind == "usd":
        return f"${v:.4g}" if abs(v) < 1 else f"${v:,.2f}"
    return f"{v:.4g}"
