"""Figures of an evaluation report (method §6–§8): pictures to look at beside the tables.

Each function takes rows already read from the evaluation folder (dicts; numbers may be floats
or the CSV's strings), draws one matplotlib ``Figure`` on an Agg canvas — never pyplot, so no
global figure state and no display — and writes a PNG atomically. The same data give the same
PNG bytes: strip-plot jitter is seeded and the PNG carries no software/version metadata.
When a figure has nothing to show it raises :class:`FigureSkipped` with the reason, which the
report prints in the figure's place.
"""
from __future__ import annotations

import contextlib
import logging
import math
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from .. import atomic

log = logging.getLogger("geofidelity")


def discard_stale_figure(path: Path) -> None:
    """Remove an earlier run's figure that this run did not make again (a page never shows a stale
    figure): only a PNG at the figure's own name in the report's figure folder; a link, a folder or a
    file that is not a PNG stays, with a warning."""
    from ..state_files import NotARegularFile, NotOurs, read_head, remove_owned

    try:
        remove_owned(path, lambda p: (read_head(p, 8) or b"") == b"\x89PNG\r\n\x1a\n", what="the figure")
    except (NotOurs, NotARegularFile) as exc:
        log.warning("%s", exc)

DPI = 110
JITTER_SEED = 0
#: Prompt conditions in the protocol's order (method §4), with short axis labels.
CONDITION_LABELS = {"L0": "L0", "L1": "L1", "L2": "L2", "C_WRONG_STREET": "wrong street",
                    "C_SHUFFLED_NEIGHBORHOOD": "shuffled nbhd", "C_WRONG_STREET_NEIGHBORHOOD": "both wrong"}
ANCHOR_PREFIX = "anchor:"
MODEL_COLOUR, MEAN_COLOUR, ANCHOR_COLOUR = "#4c72b0", "#1b2f5e", "#8c8c8c"
HIT_COLOUR, MISS_COLOUR = "#2a7f62", "#d1603d"
_RC = {"svg.hashsalt": "geofidelity", "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9,
       "xtick.labelsize": 8, "ytick.labelsize": 8, "legend.fontsize": 8, "axes.spines.top": False,
       "axes.spines.right": False, "figure.facecolor": "white", "savefig.facecolor": "white"}


class FigureSkipped(Exception):
    """Nothing to draw (e.g. no CLIP scores in the run); the message says why."""


def number(value) -> float | None:
    """A float from a row value: ``None``, ``""`` and NaN become ``None``."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value in ("True", "False"):
        return float(value == "True")
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(out) else out


def _or(value, default: float) -> float:
    out = number(value)
    return default if out is None else out


def _is_anchor(row) -> bool:
    flag = row.get("is_anchor")
    if isinstance(flag, str):
        return flag == "True"
    return bool(flag) or str(row.get("model", "")).startswith(ANCHOR_PREFIX)


def _short(name: str) -> str:
    return name[len(ANCHOR_PREFIX):] if name.startswith(ANCHOR_PREFIX) else name


def _ordered_conditions(conditions: Iterable[str]) -> list[str]:
    present = set(conditions)
    return [c for c in CONDITION_LABELS if c in present] + sorted(present - set(CONDITION_LABELS))


@contextlib.contextmanager
def _figure(width: float, height: float):
    """A fresh Figure on its own Agg canvas, built under the report's rc settings."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
        FigureCanvasAgg(fig)
        yield fig


def _save(fig, path: str | Path) -> Path:
    path = Path(path)
    with atomic.atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, format="png", dpi=DPI, metadata={"Software": None})
    log.debug("figure written: %s", path)
    return path


def _grid(fig, n: int, max_cols: int, **kwargs):
    cols = min(n, max_cols)
    rows = math.ceil(n / cols)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False, **kwargs)).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return axes[:n]


# ------------------------------------------------------------------ (1) Δhard distributions
def margin_distributions(rows: Sequence[dict], out_path: str | Path, metric: str = "margin_hard") -> Path:
    """Box + seeded strip plot of Δhard per model (one panel each) and condition; the real
    anchors get a panel of their own. method §6: Δhard > 0 means the target beat every
    negative of its gallery."""
    groups: dict[str, dict[str, list[float]]] = {}
    for r in rows:
        value = number(r.get(metric))
        if value is None:
            continue
        panel = "real anchors" if _is_anchor(r) else str(r["model"])
        label = _short(str(r["model"])) if _is_anchor(r) else str(r["condition"])
        groups.setdefault(panel, {}).setdefault(label, []).append(value)
    if not groups:
        raise FigureSkipped(f"no panel has a {metric} value")
    names = sorted(p for p in groups if p != "real anchors") + (["real anchors"] if "real anchors" in groups else [])
    rng = np.random.default_rng(JITTER_SEED)
    cols = min(len(names), 3)
    with _figure(4.3 * cols, 3.5 * math.ceil(len(names) / cols)) as fig:
        axes = _grid(fig, len(names), 3, sharey=True)
        for ax, name in zip(axes, names):
            labels = (sorted(groups[name]) if name == "real anchors" else _ordered_conditions(groups[name]))
            data = [np.asarray(groups[name][k]) for k in labels]
            ax.axhline(0.0, color="black", lw=0.8, zorder=1)
            ax.boxplot(data, widths=0.55, showfliers=False, medianprops={"color": "black"},
                       boxprops={"color": "#555555"}, whiskerprops={"color": "#555555"},
                       capprops={"color": "#555555"})
            colour = ANCHOR_COLOUR if name == "real anchors" else MODEL_COLOUR
            for i, values in enumerate(data, start=1):
                x = i + rng.uniform(-0.18, 0.18, size=values.size)
                ax.scatter(x, values, s=9, alpha=0.55, color=colour, linewidths=0, zorder=3)
            ax.set_xticks(range(1, len(labels) + 1),
                          [CONDITION_LABELS.get(k, k) for k in labels], rotation=30, ha="right")
            ax.set_title(name)
        axes[0].set_ylabel("Δhard = s(target) − max s(negatives)")
        fig.suptitle("Δhard per panel (above 0: the target beat every negative)")
        return _save(fig, out_path)


# ------------------------------------------------------------------ (2) paired deltas
def paired_deltas(deltas: Sequence[dict], out_path: str | Path) -> Path:
    """Point + bootstrap interval for each paired delta of table_deltas (method §7), one
    panel per metric, a line at 0. Intervals clear of 0 are coloured."""
    usable = [d for d in deltas if number(d.get("mean")) is not None]
    if not usable:
        raise FigureSkipped("no paired delta could be formed (the run needs at least two prompt "
                            "conditions on the same model–segment units)")
    metrics = list(dict.fromkeys(str(d["metric"]) for d in usable))
    labels = list(dict.fromkeys(str(d["delta"]) for d in usable))
    with _figure(3.6 * len(metrics), 0.9 + 0.42 * len(labels)) as fig:
        axes = _grid(fig, len(metrics), len(metrics), sharey=True)
        for ax, metric in zip(axes, metrics):
            ax.axvline(0.0, color="black", lw=0.8)
            for d in usable:
                if d["metric"] != metric:
                    continue
                y = len(labels) - 1 - labels.index(str(d["delta"]))
                mean, low, high = number(d["mean"]), number(d.get("low")), number(d.get("high"))
                colour = "#555555"
                if low is not None and low > 0:
                    colour = HIT_COLOUR
                elif high is not None and high < 0:
                    colour = MISS_COLOUR
                if low is not None and high is not None:
                    ax.errorbar(mean, y, xerr=[[mean - low], [high - mean]], fmt="o", color=colour,
                                capsize=3, ms=5)
                else:
                    ax.plot(mean, y, "o", color=colour, ms=5)
            ax.set_yticks(range(len(labels)), labels[::-1])
            ax.set_ylim(-0.6, len(labels) - 0.4)
            ax.set_title(metric)
            ax.set_xlabel("paired difference")
        fig.suptitle("Paired deltas with bootstrap intervals (green: interval above 0, red: below 0)")
        return _save(fig, out_path)


# ------------------------------------------------------------------ (3) per-city map
def read_segment_layer(gpkg: str | Path, layer: str = "segment_scores") -> list[dict]:
    """Centroid lon/lat and properties of every feature of the per-segment score layer."""
    import fiona
    import fiona.errors
    from shapely.geometry import shape

    gpkg = Path(gpkg)
    try:
        if not gpkg.exists() or layer not in fiona.listlayers(gpkg):
            raise FigureSkipped(f"{gpkg.name} has no {layer!r} layer (evaluate was run without a "
                                "model and condition for the map)")
        out = []
        with fiona.open(gpkg, layer=layer) as src:
            for feature in src:
                props = dict(feature["properties"])
                geom = shape(feature["geometry"]) if feature["geometry"] else None
                if geom is None or geom.is_empty:
                    continue
                centre = geom.centroid
                props.update(lon=centre.x, lat=centre.y,
                             line=list(geom.coords) if geom.geom_type == "LineString" else None)
                out.append(props)
    except (fiona.errors.FionaError, OSError, ValueError, KeyError, AttributeError) as exc:
        raise FigureSkipped(f"{gpkg.name} cannot be read ({type(exc).__name__}: {exc}); run evaluate again to "
                            "rewrite it") from None
    return out


def _metres(lon: float, lat: float, lon0: float, lat0: float) -> tuple[float, float]:
    """A point in metres east and north of (lon0, lat0) — a local equirectangular view, exact
    enough across one city."""
    return ((lon - lon0) * 111_320.0 * math.cos(math.radians(lat0)), (lat - lat0) * 110_574.0)


def _scale_bar(ax, span_m: float) -> None:
    """A bar of a round length (about a fifth of the view) in the lower left corner, and north."""
    length = next((n for n in (50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000)
                   if n >= span_m / 5), 100000)
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    ax.set_autoscale_on(False)  # the bar and the arrow must not move the view they measure
    x, y = x0 + 0.05 * (x1 - x0), y0 + 0.06 * (y1 - y0)
    ax.plot([x, x + length], [y, y], color="#222222", lw=3, solid_capstyle="butt", zorder=4)
    ax.text(x + length / 2, y + 0.025 * (y1 - y0), f"{length / 1000:g} km" if length >= 1000 else f"{length} m",
            ha="center", va="bottom", fontsize=7, zorder=4)
    ax.annotate("N", xy=(x1 - 0.06 * (x1 - x0), y1 - 0.05 * (y1 - y0)),
                xytext=(x1 - 0.06 * (x1 - x0), y1 - 0.2 * (y1 - y0)), ha="center", va="center", fontsize=8,
                arrowprops={"arrowstyle": "-|>", "color": "#222222", "lw": 1.0}, zorder=4)


def city_maps(segments: Sequence[dict], out_path: str | Path, metric: str = "margin_hard") -> Path:
    """Small multiples, one per city: each segment drawn as its line, coloured by Δhard on a
    diverging colormap centred at 0 (red: a negative beat the target; blue: the target won), in
    metres around the city's centre with a scale bar and north (no degrees on bare axes);
    segments without a value in grey, dashed; a dot at each centroid for the short ones."""
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib import colormaps

    if not segments:
        raise FigureSkipped("the per-segment layer has no features")
    cities = sorted({str(s.get("city")) for s in segments})
    values = [number(s.get(metric)) for s in segments]
    finite = [abs(v) for v in values if v is not None]
    if not finite:
        raise FigureSkipped(f"no segment of the map layer has a {metric} value")
    lim = max(max(finite), 1e-6)
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-lim, vmax=lim)
    cmap = colormaps["RdBu"]
    cols = min(len(cities), 4)
    with _figure(max(6.0, 3.3 * cols + 0.9), 3.4 * math.ceil(len(cities) / cols)) as fig:
        axes = _grid(fig, len(cities), 4)
        mappable = None
        for ax, city in zip(axes, cities):
            mine = [s for s in segments if str(s.get("city")) == city]
            lon0 = float(np.mean([s["lon"] for s in mine]))
            lat0 = float(np.mean([s["lat"] for s in mine]))
            known = [s for s in mine if number(s.get(metric)) is not None]
            for s in mine:
                value = number(s.get(metric))
                colour = "#9a9a9a" if value is None else cmap(norm(value))
                if s.get("line"):
                    xs, ys = zip(*[_metres(c[0], c[1], lon0, lat0) for c in s["line"]])
                    ax.plot(xs, ys, color=colour, lw=3.2 if value is not None else 1.6,
                            ls="-" if value is not None else "--", solid_capstyle="round", zorder=2)
            points = [_metres(s["lon"], s["lat"], lon0, lat0) for s in known]
            if points:
                mappable = ax.scatter([p[0] for p in points], [p[1] for p in points],
                                      c=[number(s[metric]) for s in known], cmap=cmap, norm=norm,
                                      s=14, edgecolors="#333333", linewidths=0.4, zorder=3)
            ax.set_aspect("equal", adjustable="datalim")
            ax.margins(0.12)
            ax.set_xticks([])
            ax.set_yticks([])
            for spine in ax.spines.values():
                spine.set_color("#cccccc")
            ax.set_title(f"{city} ({len(known)}/{len(mine)} scored)")
            fig.canvas.draw()  # the view's limits, for the scale bar
            x0, x1 = ax.get_xlim()
            _scale_bar(ax, x1 - x0)
        fig.colorbar(mappable, ax=list(axes), shrink=0.85,
                     label="Δhard (blue: this street wins)")
        first = segments[0]
        fig.suptitle(f"Δhard per segment · {first.get('model')} · {first.get('condition')}")
        return _save(fig, out_path)


# ------------------------------------------------------------------ (4) CLIP check
def clip_vs_retrieval(rows: Sequence[dict], out_path: str | Path, clip_check: dict | None = None) -> Path:
    """Scatter of the CLIP image–prompt score against CosSim, coloured by top-1 hit or miss
    (method §7 CLIP check). Skipped when the run has no CLIP scores."""
    points = [(number(r.get("clip_score")), number(r.get("cos_sim")), number(r.get("top1")))
              for r in rows if not _is_anchor(r)]
    points = [p for p in points if p[0] is not None and p[1] is not None]
    if len(points) < 3:
        raise FigureSkipped("no CLIP scores in this run (the generated images were imported or "
                            "generated without CLIP scoring), so the CLIP check has nothing to plot")
    clip, cos, top1 = (np.array([p[i] if p[i] is not None else np.nan for p in points]) for i in range(3))
    with _figure(5.6, 4.2) as fig:
        ax = fig.subplots()
        for hit, colour, label in ((1.0, HIT_COLOUR, "top-1 hit"), (0.0, MISS_COLOUR, "top-1 miss")):
            sel = top1 == hit
            ax.scatter(clip[sel], cos[sel], s=16, alpha=0.7, color=colour, linewidths=0,
                       label=f"{label} ({int(sel.sum())})")
        ax.set_xlabel("CLIP image–prompt score (panel mean)")
        ax.set_ylabel("CosSim to the target panel")
        ax.legend(loc="best", frameon=False)
        title = "CLIP score vs retrieval"
        if clip_check and clip_check.get("clip_model"):
            title += f" — CLIP: {Path(str(clip_check['clip_model'])).name}"
        if clip_check:
            parts = [f"{k} {number(clip_check.get(key)):.2f}" for k, key in
                     (("Spearman(CosSim)", "spearman_clip_cos_sim"), ("AUROC(top-1)", "auroc_clip_top1"))
                     if number(clip_check.get(key)) is not None]
            title += ("\n" + ", ".join(parts)) if parts else ""
        ax.set_title(title)
        return _save(fig, out_path)


# ------------------------------------------------------------------ (5) anchors beside models
def anchors_beside_models(table: Sequence[dict], out_path: str | Path) -> Path:
    """Bars of mean CosSim and top-1 with their intervals at L1, each model, the mean of the
    models, and the real anchors (method §6, the paper's Table 9)."""
    rows = [r for r in table if number(r.get("cos_sim")) is not None]
    if not rows:
        raise FigureSkipped("table_by_model_L1 has no row with a CosSim (no model panel at L1 and no anchors)")
    names = [str(r["model"]) for r in rows]
    colours = [ANCHOR_COLOUR if n.startswith(ANCHOR_PREFIX) else MEAN_COLOUR if n == "mean of models"
               else MODEL_COLOUR for n in names]
    with _figure(9.0, 1.2 + 0.38 * len(rows)) as fig:
        axes = _grid(fig, 2, 2, sharey=True)
        y = np.arange(len(rows))[::-1]
        for ax, metric, label in zip(axes, ("cos_sim", "top1"), ("mean CosSim", "top-1 retrieval")):
            est = np.array([_or(r.get(metric), np.nan) for r in rows])
            low = np.array([_or(r.get(f"{metric}_low"), e) for r, e in zip(rows, est)])
            high = np.array([_or(r.get(f"{metric}_high"), e) for r, e in zip(rows, est)])
            err = np.vstack([np.clip(est - low, 0, None), np.clip(high - est, 0, None)])
            ax.barh(y, np.nan_to_num(est), color=colours, height=0.65,
                    xerr=np.nan_to_num(err), error_kw={"ecolor": "black", "capsize": 3, "lw": 1})
            ax.axvline(0.0, color="black", lw=0.8)
            for yi, e, h in zip(y, est, high):
                if not np.isnan(e):
                    ax.annotate(f"{e:.3f}", (max(h, e, 0.0), yi), xytext=(4, 0), textcoords="offset points",
                                va="center", fontsize=7)
            ax.set_title(label)
            right = max(float(np.nanmax(np.r_[high, est, 0.0])), 0.05)
            ax.set_xlim(min(0.0, float(np.nanmin(np.r_[low, est]))), (1.0 if metric == "top1" else right) * 1.15)
        axes[0].set_yticks(y, [_short(n) for n in names])
        fig.suptitle("L1 models beside the real anchors (grey) — bars: mean, whiskers: bootstrap interval")
        return _save(fig, out_path)
