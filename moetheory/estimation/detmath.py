"""A deterministic exponential: the same bits on every SIMD path and BLAS library.

NumPy's ``exp`` and ``log`` dispatch to different SIMD kernels (AVX2, AVX-512) that differ in
the last bit; everything downstream of a least-squares fit can then land elsewhere.
:func:`det_exp` and :func:`det_log` use only IEEE-exact elementary operations (``+``,
``*``, ``/``, ``rint``, ``frexp``, ``ldexp``), whose results do not depend on the code path.
"""

from __future__ import annotations

import numpy as np

__all__ = ["det_exp", "det_log"]

_LN2_HI = 6.93147180369123816490e-01  # ln 2 split so that k * _LN2_HI is exact for |k| < 2^11
_LN2_LO = 1.90821492927058770002e-10
_MAX_ARG = 709.782712893384  # log of the largest double
_INV_LN2 = 1.44269504088896338700e00
#: Taylor coefficients 1/j! of exp on |r| <= ln(2)/2 (truncation error < 1e-17).
_COEF = [1.0 / float(np.prod(np.arange(1, j + 1))) for j in range(14)]


def det_exp(x: np.ndarray) -> np.ndarray:
    """``exp(x)`` from IEEE-exact operations only: the same bits on every SIMD path.

    Cody–Waite reduction ``x = k ln 2 + r``, ``|r| <= ln(2)/2``, a degree-13 Taylor
    polynomial in Horner form, then ``ldexp``; relative error below ``3e-16``.

    Examples
    --------
    >>> x = np.linspace(-30, 30, 101)
    >>> bool(np.max(np.abs(det_exp(x) / np.exp(x) - 1)) < 1e-15)
    True
    >>> det_exp(np.array([-800.0, 0.0, 800.0])).tolist()
    [0.0, 1.0, inf]
    """
    x = np.asarray(x, dtype=float)
    xc = np.clip(x, -745.0, _MAX_ARG)
    k = np.rint(xc * _INV_LN2)
    r = xc - k * _LN2_HI
    r -= k * _LN2_LO
    p = r * _COEF[-1]  # in place from here: the same IEEE operations, no temporaries
    p += _COEF[-2]
    for c in _COEF[-3::-1]:
        p *= r
        p += c
    out = np.ldexp(p, k.astype(np.int64))
    if np.any(x < -745.0) or np.any(x > _MAX_ARG):
        out = np.where(x < -745.0, 0.0, np.where(x > _MAX_ARG, np.inf, out))
    return out




def det_log(x: np.ndarray) -> np.ndarray:
    """``log(x)`` for ``x > 0`` from IEEE-exact operations and :func:`det_exp` only.

    ``x = m 2^e`` with ``m`` in ``[1/2, 1)`` (``frexp``, exact); start from
    ``e ln 2 + 2 (m - 1)/(m + 1)`` and take five Halley steps
    ``y <- y + 2 (x - e^y)/(x + e^y)`` (cubic convergence): a fixed sequence of operations,
    hence the same bits on every path.

    Examples
    --------
    >>> x = np.array([1e-300, 0.5, 1.0, 2.0, 123.456, 1e300])
    >>> bool(np.max(np.abs(det_log(x) - np.log(x)) / np.maximum(1, np.abs(np.log(x)))) < 1e-15)
    True
    """
    x = np.asarray(x, dtype=float)
    if np.any(~(x > 0)) or not np.all(np.isfinite(x)):
        raise ValueError("det_log needs finite x > 0")
    m, e = np.frexp(x)
    y = e * (_LN2_HI + _LN2_LO) + 2.0 * (m - 1.0) / (m + 1.0)
    for _ in range(5):
        ey = det_exp(y)
        y = y + 2.0 * (x - ey) / (x + ey)
    return y
