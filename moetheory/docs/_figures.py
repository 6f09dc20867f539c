"""The figures of ``moetheory reproduce`` shown under their claims, with their captions."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory.docs._markup import _code, _text
from moetheory.docs._names import GENERATE_PROFILE

__all__ = ["FIGURE_CAPTIONS", "FIGURE_CLAIMS"]

#: ``moetheory reproduce`` target -> the claim whose section shows its figures.
FIGURE_CLAIMS: dict[str, str] = {
    "rates": "pcr.rates.regression",
    "cl-fig2": "cl.fig2",
    "cl-fig4-5": "cl.fig4-5",
}

_BANDS = "Curves are means over replicates; shaded bands are pointwise 95 % Student-t intervals."
_READINGS = {
    "paper": "the paper's reading (Definition 1 and the equations as written)",
    "code": "the reading of the authors' released code",
}

#: Figure file stem -> caption (the profile, seed and replicates are added from the figure
#: folder's ``figures.json``, written by ``docs/make_figures.py``).
FIGURE_CAPTIONS: dict[str, str] = {
    **{
        f"cl_fig2_{r}": "Figure 2 of Li et al. (2025) under " + text + ": forgetting $F_t$ "
        "(left) and overall generalization error $G_t$ (right) against the round $t$ for "
        "$M \\in \\{1, 5, 10, 20\\}$ experts, with and without terminating the gating "
        "network's updates. " + _BANDS
        for r, text in _READINGS.items()
    },
    **{
        f"cl_fig4_{r}": "Figure 4 of Li et al. (2025) under " + text + ": the expert each "
        "task is routed to, in one run, for each threshold $\\Gamma$ "
        "($N = 6$, $K = 3$, $M = 5$); the colour is the task's cluster, the dashed line the "
        "round the gating network's updates are terminated."
        for r, text in _READINGS.items()
    },
    **{
        f"cl_fig5_{r}": "Figure 5 of Li et al. (2025) under " + text + ": mean forgetting "
        "and generalization error against $t$ for each threshold $\\Gamma$ ($N = 30$). "
        + _BANDS
        for r, text in _READINGS.items()
    },
    "rates": "Estimation-rate experiment of Nguyen et al. (2025): Voronoi loss against the "
    "sample size $n$ on log-log axes, one series per router and number of experts.",
}

_FIGURE_SUFFIXES = (".png", ".svg")
#: Figures drawn from one run (per panel), whatever the replicates of their folder.
_ONE_RUN_FIGURES = ("cl_fig4_",)


def _table_run(entry: Mapping[str, Any] | None) -> str:
    """The size of the verification run behind a claim's tables, from its evidence."""
    if entry is None:
        return ""
    readings = entry.get("readings") or []
    evidence = (readings[0].get("evidence") if readings else entry.get("evidence")) or {}
    sizes = []
    if isinstance(evidence.get("replicates"), int):
        sizes.append(f"{evidence['replicates']} replicates")
    if isinstance(evidence.get("T"), int):
        sizes.append(f"$T = {evidence['T']}$ rounds")
    return " of " + " and ".join(sizes) if sizes else ""


def _caption(stem: str, meta: Mapping[str, Any], entry: Mapping[str, Any] | None = None) -> str:
    base = FIGURE_CAPTIONS.get(stem, f"Figure {_text(stem)}.")
    run = []
    if meta.get("profile"):
        run.append(f"{meta['profile']} profile")
    if meta.get("seed") is not None:
        run.append(f"seed {meta['seed']}")
    if stem.startswith(_ONE_RUN_FIGURES):
        run.append("one run per panel")
    elif meta.get("replicates"):
        run.append(f"{meta['replicates']} replicates")
    if not run:
        return base
    return (
        f"{base} Written by {_code(str(meta.get('command', 'moetheory reproduce')))} "
        f"({', '.join(run)}). The verdict and the tables of this claim come from the "
        f"{GENERATE_PROFILE}-profile verification run{_table_run(entry)}, not from this "
        "figure's run."
    )


def _figures(
    entry: Mapping[str, Any], figures: Mapping[str, Sequence[tuple[str, dict]]]
) -> list[str]:
    lines: list[str] = []
    for target, claim_id in FIGURE_CLAIMS.items():
        if claim_id != entry["id"] or not figures.get(target):
            continue
        lines += ["```{rubric} Figures", "```", ""]
        for path, meta in figures[target]:
            stem = Path(path).stem
            lines += [
                f"```{{figure}} {path}",
                f":alt: {stem}",
                ":width: 100%",
                "",
                _caption(stem, meta, entry),
                "```",
                "",
            ]
    return lines


def _collect_figures(figures_dir: Path | None, out_dir: Path) -> dict[str, list[tuple]]:
    found: dict[str, list[tuple[str, dict]]] = {}
    if figures_dir is None or not figures_dir.is_dir():
        return found
    for target in FIGURE_CLAIMS:
        folder = figures_dir / target
        if not folder.is_dir():
            continue
        meta: dict = {}
        if (folder / "figures.json").is_file():
            meta = json.loads((folder / "figures.json").read_text(encoding="utf-8"))
        images = [p for p in folder.iterdir() if p.suffix in _FIGURE_SUFFIXES]
        images.sort(key=lambda p: (p.stem, _FIGURE_SUFFIXES.index(p.suffix)))
        by_stem: dict[str, Path] = {}
        for image in images:  # one file per figure: PNG before SVG
            by_stem.setdefault(image.stem, image)
        rel = [
            (Path("..", *_relative(p, out_dir).parts).as_posix(), meta) for p in by_stem.values()
        ]
        if rel:
            found[target] = rel
    return found


def _relative(path: Path, out_dir: Path) -> Path:
    docs_root = out_dir.resolve().parent
    return path.resolve().relative_to(docs_root)
