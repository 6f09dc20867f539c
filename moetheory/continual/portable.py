"""Floating-point kernels whose results do not depend on the BLAS library or the SIMD path.

The routing of Algorithm 1 is chaotic: a perturbation of ``1e-15`` in one gate output changes
the routed expert after a few hundred rounds. NumPy's ``exp`` has an AVX-512 kernel whose
results differ in the last bit from the scalar kernel, and ``matmul``/``dot`` call BLAS, whose
summation order depends on the CPU type. The simulator therefore uses only these kernels:
elementwise ``+ - * /``, ``sqrt`` (correctly rounded by IEEE 754 on every path), ``rint``,
``ldexp`` and reductions ``ndarray.sum`` along an axis (a fixed pairwise order that does not
depend on the SIMD width).

References
----------
.. [1] W. J. Cody and W. Waite, *Software Manual for the Elementary Functions*, 1980
   (argument reduction ``x = k ln 2 + r``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["dot_last", "portable_exp"]

_LOG2E = 1.4426950408889634
# ln 2 split so that k * _LN2_HI is exact for |k| < 2**11 (Cody and Waite).
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
#: Taylor coefficients 1/j! for j = 13, ..., 0 (Horner order); |r| <= ln(2)/2 gives a
#: truncation error below 1e-17 relative.
_TAYLOR = tuple(1.0 / float(np.prod(np.arange(1, j + 1, dtype=float))) for j in range(13, -1, -1))


def portable_exp(x: np.ndarray) -> np.ndarray:
    """``exp(x)`` elementwise from IEEE-exact operations only (same bits on every CPU path).

    Parameters
    ----------
    x : array_like
        Real arguments; ``-inf`` gives 0, values above 709 overflow to ``inf``.

    Returns
    -------
    ndarray
        Within 2 units in the last place of the exact value.

    Notes
    -----
    With ``k = rint(x log2 e)`` and ``r = (x - k ln2_hi) - k ln2_lo``, ``|r| <= ln(2)/2`` and
    ``exp(x) = 2^k · Σ_{j<=13} r^j / j!`` (Horner), then ``ldexp``. Every step is one
    correctly rounded operation, so the result is the same whatever kernels NumPy selects.

    Examples
    --------
    >>> v = portable_exp(np.array([0.0, 1.0, -np.inf, -800.0]))
    >>> bool(abs(v[1] - np.e) < 1e-15), v[[0, 2, 3]].tolist()
    (True, [1.0, 0.0, 0.0])
    """
    x = np.asarray(x, dtype=float)
    xc = np.clip(np.nan_to_num(x, nan=0.0), -746.0, 710.0)
    k = np.rint(xc * _LOG2E)
    r = (xc - k * _LN2_HI) - k * _LN2_LO
    p = np.full_like(r, _TAYLOR[0])
    for c in _TAYLOR[1:]:
        p = p * r + c
    # Split the scaling so that 2^k does not overflow or underflow on the way.
    half = np.trunc(k / 2.0)
    with np.errstate(over="ignore", under="ignore"):
        out = np.ldexp(np.ldexp(p, half.astype(np.int64)), (k - half).astype(np.int64))
    out = np.where(x == -np.inf, 0.0, out)
    return np.where(np.isnan(x), np.nan, out)


def dot_last(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Σ_i a[..., i] b[..., i]`` with broadcasting, without BLAS (a fixed summation order).

    Examples
    --------
    >>> dot_last(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 1.0])).tolist()
    [3.0, 7.0]
    """
    return (a * b).sum(axis=-1)
