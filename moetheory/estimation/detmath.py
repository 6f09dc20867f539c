"""A deterministic exponential: the same bits on every SIMD path and BLAS library.

NumPy's ``exp`` (and ``log``) dispatch to different SIMD kernels (AVX2, AVX-512) that differ in
the last bit; everything downstream of a least-squares fit can then land elsewhere.
:func:`det_exp` uses only IEEE-exact elementary operations (``+``, ``*``, ``rint``, ``ldexp``),
whose results do not depend on the code path.
"""

from __future__ import annotations

import numpy as np

__all__ = ["det_exp"]

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
    r = (xc - k * _LN2_HI) - k * _LN2_LO
    p = np.full_like(r, _COEF[-1])
    for c in _COEF[-2::-1]:
        p = p * r + c
    out = np.ldexp(p, k.astype(np.int64))
    return np.where(x < -745.0, 0.0, np.where(x > _MAX_ARG, np.inf, out))


