"""Deterministic sample logs for every brownfield family (demo data, tests, benchmarks).

`write_sample_logs(root, scale=1.0, seed=7)` writes root/logs_big/*.jsonl (brownfield runs),
root/logs/*.jsonl (chat x coder matrix turns) and root/logs_layered/*.jsonl (pipeline
measurements) and returns {family: [paths]}. Each family module exposes
`write(root: Path, n: int | None = None, seed: int = 7) -> list[Path]`; a family whose module is
not present is skipped (its list is empty). `scale` multiplies each family's default record count.
"""
from __future__ import annotations

import importlib
from pathlib import Path

# family -> (module, default number of records at scale 1.0; None = the module's own default)
FAMILIES = {
    "big": ("evalhouse.samples.big", None),
    "matrix": ("evalhouse.samples.matrix", None),
    "layered": ("evalhouse.samples.layered", None),
}


def _default_n(module) -> int | None:
    return getattr(module, "DEFAULT_N", None)


def write_sample_logs(root: Path, scale: float = 1.0, seed: int = 7) -> dict[str, list[Path]]:
    """Write the sample logs of every available family under `root`; return the paths per family."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    out: dict[str, list[Path]] = {}
    for family, (modname, default_n) in FAMILIES.items():
        try:
            module = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name != modname:      # a real import error inside an existing module
                raise
            out[family] = []
            continue
        n = default_n if default_n is not None else _default_n(module)
        if scale != 1.0:
            if n is None:
                # the module's default design size: ask it by counting a dry plan when it can
                n = getattr(module, "design_size", lambda: None)()
            if n is not None:
                n = max(1, int(round(n * scale)))
        out[family] = list(module.write(root, n=n, seed=seed))
    return out
