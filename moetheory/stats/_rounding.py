"""Rounding of every number a report prints: 4 significant digits, the same on every machine."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["stable", "stable_tree"]


def stable(x: float | None, digits: int = 4) -> float | None:
    """``x`` rounded to ``digits`` significant digits, for evidence and printing.

    Parameters
    ----------
    x : float or None
        The value (``None`` passes through).
    digits : int
        Significant digits, in ``1 .. 15``.

    Returns
    -------
    float or None
        ``x`` rounded; zero, infinities and NaN unchanged.

    Raises
    ------
    ValueError
        If ``digits`` lies outside ``1 .. 15``.

    See Also
    --------
    stable_tree : the same for every float inside a structure.

    Notes
    -----
    Monte Carlo statistics differ in their last bits between BLAS and SIMD code paths;
    4 significant digits agree on all of them, so reports print only those. Decisions use
    the unrounded values.

    Examples
    --------
    >>> stable(0.123456789)
    0.1235
    >>> stable(-12345.678), stable(0.0), stable(float("inf"))
    (-12350.0, 0.0, inf)
    """
    if x is None:
        return None
    x = float(x)
    if not math.isfinite(x) or x == 0.0:
        return x
    if not 1 <= digits <= 15:
        raise ValueError(f"digits must lie in 1..15, got {digits}")
    return float(f"{x:.{digits - 1}e}")


def stable_tree(obj: Any, digits: int = 4) -> Any:
    """Copy of ``obj`` with every float passed through :func:`stable`.

    Floats inside lists, tuples, dicts and float arrays are rounded too; other values are
    unchanged.

    Parameters
    ----------
    obj : object
        A float, array, list, tuple or dict (nested freely), or any other value.
    digits : int
        Significant digits (see :func:`stable`).

    Returns
    -------
    object
        The copy; float arrays become lists.

    See Also
    --------
    stable : rounding of one value.

    Notes
    -----
    Integers and booleans (also NumPy's) are kept exactly; only floats are rounded.

    Examples
    --------
    >>> stable_tree({"mean": 0.123456, "ci": [0.1, 0.1499999], "n": 10, "ok": True})
    {'mean': 0.1235, 'ci': [0.1, 0.15], 'n': 10, 'ok': True}
    """
    import numpy as np

    if isinstance(obj, bool | int | np.bool_ | np.integer) or obj is None:
        return obj
    if isinstance(obj, float | np.floating):
        return stable(float(obj), digits)
    if isinstance(obj, np.ndarray):
        return [stable_tree(v, digits) for v in obj.tolist()] if obj.dtype.kind == "f" else obj
    if isinstance(obj, dict):
        return {k: stable_tree(v, digits) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return type(obj)(stable_tree(v, digits) for v in obj)
    return obj
