"""The report's plots, drawn with matplotlib (vector SVG and PDF, no browser or network needed).

Each function takes plain numbers and returns a `matplotlib.figure.Figure`; nothing here reads the
warehouse. Missing values (NULL estimates or bounds) are drawn as nothing, never as 0.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

import matplotlib
from matplotlib.figure import Figure

ROW_INCH = 0.24
ACCENT = "#1f5fa8"
MUTED = "#9aa5b1"
WARN = "#c0392b"


@dataclass
class Panel:
    """One column of a forest plot: an estimate and its interval per row."""
    title: str
    est: list[float | None]
    low: list[float | None]
    high: list[float | None]
    unit_range: bool = True                   # a share in [0, 1]: the axis spans it
    reference: float | None = None            # a line at no difference
    strong: list[bool] | None = None          # paired: survives the family adjustment (filled marker)
    log_x: bool = False


def _height(n_rows: int) -> float:
    return max(2.0, ROW_INCH * n_rows + 1.1)


def _label_width(labels: list[str]) -> float:
    return min(4.2, 0.065 * max((len(s) for s in labels), default=10) + 0.3)


def forest(labels: list[str], panels: list[Panel]) -> Figure:
    """Rows top to bottom, one panel per measure side by side (never combined into one scale)."""
    n = len(labels)
    width = _label_width(labels) + 3.0 * len(panels)
    fig = Figure(figsize=(width, _height(n)), layout="constrained")
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    ys = list(range(n))[::-1]
    for ax, panel in zip(axes, panels):
        for y, e, lo, hi, i in zip(ys, panel.est, panel.low, panel.high, range(n)):
            if lo is not None and hi is not None:
                ax.plot([lo, hi], [y, y], color=ACCENT, linewidth=1.4, solid_capstyle="butt")
            if e is not None:
                filled = panel.strong is None or bool(panel.strong[i])
                ax.plot([e], [y], marker="o", markersize=4.5, color=ACCENT,
                        markerfacecolor=ACCENT if filled else "white", markeredgewidth=1.2)
        if panel.reference is not None:
            ax.axvline(panel.reference, color=MUTED, linewidth=0.8, linestyle="--")
        if panel.unit_range:
            ax.set_xlim(-0.02, 1.02)
        if panel.log_x:
            ax.set_xscale("log")
        ax.set_title(panel.title, fontsize=9)
        ax.tick_params(labelsize=7)
        ax.grid(axis="x", color="#e5e8eb", linewidth=0.6)
        ax.set_ylim(-0.7, n - 0.3)
    axes[0].set_yticks(ys)
    axes[0].set_yticklabels(labels, fontsize=7)
    return fig


def done_but_broke(change: list[float], regress: list[float], corner: list[bool], runs: list[int]) -> Figure:
    """`change` against `regress`, one point per distinct pair with its area proportional to its runs; the
    done-but-broke corner (change = 1, regress < 1) shaded and its points marked."""
    fig = Figure(figsize=(4.8, 4.2), layout="constrained")
    ax = fig.subplots()
    ax.fill_between([0.99, 1.03], -0.03, 0.995, color="#fdecea", zorder=0, label="done-but-broke corner")
    most = max(runs, default=1)

    def size(k: int) -> float:
        return 8 + 120 * k / most

    for flag, colour, marker, name in ((False, ACCENT, "o", "runs"), (True, WARN, "X", "done but broke")):
        sel = [i for i, k in enumerate(corner) if k == flag]
        if sel:
            ax.scatter([change[i] for i in sel], [regress[i] for i in sel], s=[size(runs[i]) for i in sel],
                       color=colour, alpha=0.55 if not flag else 0.9, marker=marker, linewidths=0, label=name)
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("change (share of the task's assertions passed)", fontsize=8)
    ax.set_ylabel("regress (share of regression checks kept)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="lower left", title=f"area: runs (largest {most})", title_fontsize=7)
    return fig


@dataclass
class CostPanel:
    title: str
    cost: list[float | None]
    cost_low: list[float | None]
    cost_high: list[float | None]
    rate: list[float | None]
    rate_low: list[float | None]
    rate_high: list[float | None]
    status: list[str] = field(default_factory=list)   # frontier | dominated | not judged


def cost_quality(panels: list[CostPanel]) -> Figure:
    """Mean cost per unit (x, log scale) against the success rate (y), both with intervals; the arms no
    rival beats beyond both intervals (the frontier) filled, dominated arms hollow, unjudged arms grey."""
    fig = Figure(figsize=(4.0 * len(panels), 3.6), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    style = {"frontier": (ACCENT, ACCENT), "dominated": (ACCENT, "white"), "not judged": (MUTED, MUTED)}
    for ax, p in zip(axes, panels):
        positive = [c for c in p.cost if c is not None and c > 0]
        for i in range(len(p.cost)):
            c, r = p.cost[i], p.rate[i]
            if c is None or r is None:
                continue
            edge, face = style.get(p.status[i], style["not judged"])
            if p.rate_low[i] is not None and p.rate_high[i] is not None:
                ax.plot([c, c], [p.rate_low[i], p.rate_high[i]], color=edge, linewidth=0.8)
            if p.cost_low[i] is not None and p.cost_high[i] is not None:
                ax.plot([max(p.cost_low[i], 1e-9), p.cost_high[i]], [r, r], color=edge, linewidth=0.8)
            ax.plot([c], [r], marker="o", markersize=4.5, color=edge, markerfacecolor=face)
        if positive and all(c is None or c > 0 for c in p.cost):
            # a log axis framed by the estimates: a lower bound at (or near) 0 runs off the left edge
            highs = [h for h in p.cost_high if h is not None] + positive
            ax.set_xscale("log")
            ax.set_xlim(min(positive) / 3, max(highs) * 1.5)
        ax.set_ylim(-0.03, 1.03)
        ax.set_title(p.title, fontsize=9)
        ax.set_xlabel("mean best-known cost per unit (USD)", fontsize=8)
        ax.set_ylabel("success rate", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(color="#e5e8eb", linewidth=0.6)
    return fig


def bars(labels: list[str], counts: list[int], xlabel: str) -> Figure:
    fig = Figure(figsize=(_label_width(labels) + 3.5, _height(len(labels))), layout="constrained")
    ax = fig.subplots()
    ys = list(range(len(labels)))[::-1]
    ax.barh(ys, counts, color=ACCENT, height=0.6)
    for y, c in zip(ys, counts):
        ax.text(c, y, f" {c}", va="center", fontsize=7)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.set_xlim(0, max(counts, default=1) * 1.15 + 1)
    return fig


def render(fig: Figure, fig_id: str) -> tuple[bytes, bytes]:
    """(SVG, PDF) bytes: text as paths (no font is needed to view them), no creation date (the same data
    gives the same files), element ids salted with the figure id (unique when several are inlined)."""
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": fig_id, "pdf.fonttype": 42}):
        svg, pdf = io.BytesIO(), io.BytesIO()
        fig.savefig(svg, format="svg", metadata={"Date": None})
        fig.savefig(pdf, format="pdf", metadata={"CreationDate": None})
    return svg.getvalue(), pdf.getvalue()
