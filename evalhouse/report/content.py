"""The report's building blocks: tables of cells, figures with captions, sections, and the warehouse reader.

A cell is a string, a `Num`, an `Interval` or a list of strings and `Num`s; a caption is a list of strings and `Num`s. Nothing here
formats for a medium (render.py does) or draws (figures.py does).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union

from .numbers import Interval, Num

Part = Union[str, Num]
Cell = Union[str, Num, Interval, list, None]    # a list is a run of parts (strings and numbers)


@dataclass
class Table:
    id: str
    title: str
    columns: list[str]
    rows: list[list[Cell]]
    caption: list[Part] = field(default_factory=list)


@dataclass
class Figure:
    id: str
    title: str
    caption: list[Part]
    draw: Callable[[], object]        # returns a matplotlib Figure
    table: Table | None = None


@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)   # what this warehouse does not hold, in words

    @property
    def empty(self) -> bool:
        return not self.figures and not self.tables


def quote(ident: str) -> str:
    return '"' + ident.replace('"', '""') + '"'


def rel(name: str) -> str:
    """`marts.big_rates` -> `"marts"."big_rates"`."""
    return ".".join(quote(p) for p in name.split("."))


class Warehouse:
    """Read-only access to the analyst file: which relations exist, their columns, and rows as dicts."""

    def __init__(self, con):
        self.con = con
        self._cols: dict[str, list[str]] = {}
        for schema, table, column in con.execute(
                "SELECT table_schema, table_name, column_name FROM information_schema.columns "
                "ORDER BY table_schema, table_name, ordinal_position").fetchall():
            self._cols.setdefault(f"{schema}.{table}", []).append(column)

    def columns(self, name: str) -> list[str]:
        return self._cols.get(name, [])

    def has(self, name: str) -> bool:
        return name in self._cols

    def count(self, name: str, where: str = "") -> int:
        if not self.has(name):
            return 0
        return self.con.execute(f"SELECT count(*) FROM {rel(name)}" + (f" WHERE {where}" if where else "")
                                ).fetchall()[0][0]

    def rows(self, name: str, columns: list[str], where: str = "", order: list[str] | None = None) -> list[dict]:
        have = set(self.columns(name))
        cols = [c for c in dict.fromkeys(columns) if c in have]
        sql = f"SELECT {', '.join(quote(c) for c in cols)} FROM {rel(name)}"
        if where:
            sql += f" WHERE {where}"
        if order:
            sql += " ORDER BY " + ", ".join(quote(c) for c in order if c in have)
        cur = self.con.execute(sql)
        return [dict(zip(cols, r)) for r in cur.fetchall()]

    def value(self, name: str, expr: str, where: str = ""):
        return self.con.execute(f"SELECT {expr} FROM {rel(name)}" + (f" WHERE {where}" if where else "")
                                ).fetchall()[0][0]

    def aggregate(self, name: str, expr: str, where: str = "", kind: str = "float") -> Num:
        """A caption number over a population: `SELECT expr FROM name WHERE where`."""
        return Num(name, expr, (), self.value(name, expr, where), kind, population=where)
