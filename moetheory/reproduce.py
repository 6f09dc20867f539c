"""Targets of ``moetheory reproduce``: figures and data of the papers' experiments.

Each target is a function ``f(out_dir, *, seed, profile, replicates, progress) -> list[Path]``
named here by ``"module:function"``, so the command line imports plotting code only when
a figure is asked for.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["REPRODUCERS", "reproduce"]

#: name -> ("module:function", one-line description)
REPRODUCERS: dict[str, tuple[str, str]] = {
    "rates": (
        "moetheory.estimation.experiment:reproduce_rates",
        "estimation-rate experiment: every router and expert family, medians with CI bands "
        "against n (log-log), and CSV; --scheduler runs it on a dask cluster",
    ),
    "cl-fig2": (
        "moetheory.continual.figures:reproduce_fig2",
        "continual learning, Figure 2: forgetting and generalization error against t",
    ),
    "cl-fig4-5": (
        "moetheory.continual.figures:reproduce_fig4_5",
        "continual learning, Figures 4-5: load balance and errors against the threshold",
    ),
}


def _resolve(name: str) -> Callable[..., list[Path]]:
    if name not in REPRODUCERS:
        raise ValueError(f"unknown reproduce target {name!r}; choose one of {sorted(REPRODUCERS)}")
    module, func = REPRODUCERS[name][0].split(":")
    return getattr(importlib.import_module(module), func)  # type: ignore[no-any-return]


def reproduce(name: str, out_dir: str | Path, **options: Any) -> list[Path]:
    """Run the reproduce target ``name`` writing into ``out_dir``; return the files written.

    Options a target does not take (``scheduler`` for a target that runs locally only) are a
    clear error before any work.
    """
    func = _resolve(name)
    accepted = inspect.signature(func).parameters
    unknown = sorted(k for k in options if k not in accepted)
    if unknown:
        raise ValueError(f"reproduce target {name!r} does not support option(s) {unknown}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return func(out, **options)
