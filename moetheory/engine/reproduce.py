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

#: ``("module:function", one-line description)`` by name.
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
    """Run the reproduce target ``name``, writing its files into ``out_dir``.

    Parameters
    ----------
    name : str
        A key of :data:`REPRODUCERS`: ``"rates"``, ``"cl-fig2"`` or ``"cl-fig4-5"``.
    out_dir : str or pathlib.Path
        Directory for the figures and tables; created (with its parents) if missing.
    **options
        Keyword arguments of the target function, e.g. ``seed``, ``profile``
        (``"quick"`` or ``"full"``), ``replicates``, ``progress``, and ``scheduler`` for
        ``"rates"`` only.

    Returns
    -------
    list of pathlib.Path
        The files written, in the order the target wrote them.

    Raises
    ------
    ValueError
        If ``name`` is not a key of :data:`REPRODUCERS`, or if ``options`` holds a keyword the
        target does not accept; both are raised before any work and before ``out_dir`` is
        created. The target's own argument checks (``ValueError`` for a bad ``profile`` or
        ``replicates``) propagate.

    See Also
    --------
    moetheory.continual.figures.reproduce_fig2 : the ``cl-fig2`` target.
    moetheory.continual.figures.reproduce_fig4_5 : the ``cl-fig4-5`` target.
    moetheory.estimation.experiment.reproduce_rates : the ``rates`` target.

    Notes
    -----
    Each entry of :data:`REPRODUCERS` names its target as ``"module:function"``, imported
    only when the target is run, so that ``moetheory --help`` and the other commands never
    import matplotlib. A target is called as ``f(out_dir, **options)``; the options are
    compared with the target's signature first, so that an option such as ``scheduler`` given
    to a target that runs locally only is an error rather than silently ignored.

    Examples
    --------
    >>> sorted(REPRODUCERS)
    ['cl-fig2', 'cl-fig4-5', 'rates']
    >>> reproduce("cl-fig3", "out")
    Traceback (most recent call last):
    ...
    ValueError: unknown reproduce target 'cl-fig3'; choose one of ['cl-fig2', 'cl-fig4-5', 'rates']
    >>> reproduce("cl-fig2", "out", scheduler="tcp://localhost:8786")
    Traceback (most recent call last):
    ...
    ValueError: reproduce target 'cl-fig2' does not support option(s) ['scheduler']
    """
    func = _resolve(name)
    accepted = inspect.signature(func).parameters
    unknown = sorted(k for k in options if k not in accepted)
    if unknown:
        raise ValueError(f"reproduce target {name!r} does not support option(s) {unknown}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return func(out, **options)
