"""Floating-point kernels whose results do not depend on the BLAS library or the SIMD path.

The routing of Algorithm 1 is chaotic: a perturbation of ``1e-15`` in one gate output changes
the routed expert after a few hundred rounds. NumPy's ``exp`` has an AVX-512 kernel whose
results differ in the last bit from the scalar kernel, and ``matmul``/``dot`` call BLAS, whose
summation order depends on the CPU type. The simulator therefore uses only these kernels:
elementwise ``+ - * /``, ``sqrt`` (correctly rounded by IEEE 754 on every path), ``rint``,
``ldexp``, reductions ``ndarray.sum`` along an axis (a fixed pairwise order that does not
depend on the SIMD width) and ``einsum`` without ``optimize`` (see :func:`dot_last`). The
exponential reduces its argument as ``x = k ln 2 + r`` [1]_.

References
----------
.. [1] William J. Cody and William Waite, *Software Manual for the Elementary Functions*, 1980
   (argument reduction ``x = k ln 2 + r``).
"""

from __future__ import annotations

import numpy as np

try:  # the compiled loop np.einsum calls when optimize is False (its default), without the
    # Python wrapper: the simulators call dot_last ~10^5 times per check
    from numpy._core.multiarray import c_einsum as _c_einsum
except ImportError:  # NumPy 1.x
    from numpy.core.multiarray import c_einsum as _c_einsum  # type: ignore[no-redef]
try:  # the ufunc np.clip calls on float arrays, without the wrapper's argument handling
    from numpy._core.umath import clip as _clip  # type: ignore[attr-defined]
except ImportError:  # NumPy 1.x
    from numpy.core.umath import clip as _clip  # type: ignore[no-redef]

__all__ = ["dot_last", "portable_exp", "portable_power"]

_LOG2E = 1.4426950408889634
# ln 2 split so that k * _LN2_HI is exact for |k| < 2**11 (Cody and Waite).
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
#: Taylor coefficients 1/j! for j = 13, ..., 0 (Horner order); |r| <= ln(2)/2 gives a
#: truncation error below 1e-17 relative.
_TAYLOR = tuple(1.0 / float(np.prod(np.arange(1, j + 1, dtype=float))) for j in range(13, -1, -1))


def portable_exp(x: np.ndarray) -> np.ndarray:
    r"""``exp(x)`` elementwise from IEEE-exact operations only (same bits on every CPU path).

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
    With :math:`k = \operatorname{rint}(x \log_2 e)` and
    :math:`r = (x - k\,c_{\text{hi}}) - k\,c_{\text{lo}}` (:math:`c_{\text{hi}} + c_{\text{lo}}
    = \ln 2`), :math:`|r| \le \ln(2)/2` and
    :math:`e^x = 2^k \sum_{j \le 13} r^j / j!` (Horner), then ``ldexp``. Every step is one
    correctly rounded operation, so the result is the same whatever kernels NumPy selects.

    See Also
    --------
    dot_last : the other portable kernel.
    numpy.exp : faster, but its bits depend on the SIMD path.

    References
    ----------
    .. [1] William J. Cody and William Waite, *Software Manual for the Elementary Functions*,
       1980.

    Examples
    --------
    >>> v = portable_exp(np.array([0.0, 1.0, -np.inf, -800.0]))
    >>> bool(abs(v[1] - np.e) < 1e-15), v[[0, 2, 3]].tolist()
    (True, [1.0, 0.0, 0.0])
    """
    x = np.asarray(x, dtype=float)
    xc = _clip(x, -746.0, 710.0)
    k = np.rint(xc * _LOG2E)
    r = (xc - k * _LN2_HI) - k * _LN2_LO
    p = np.full_like(r, _TAYLOR[0])
    for c in _TAYLOR[1:]:
        np.multiply(p, r, out=p)
        np.add(p, c, out=p)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        # one correctly rounded scaling (also into the subnormal range); NaN only via x
        out = np.ldexp(p, np.where(np.isnan(k), 0.0, k).astype(np.int64))
    if np.isnan(x).any():
        out[np.isnan(x)] = np.nan
    return out


def dot_last(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Σ_i a[..., i] b[..., i]`` with broadcasting, without BLAS.

    Parameters
    ----------
    a, b : ndarray
        Arrays whose last axes have the same length; the leading axes broadcast.

    Returns
    -------
    ndarray
        The broadcast leading shape: the dot product along the last axis.

    See Also
    --------
    portable_exp : the other portable kernel.

    Notes
    -----
    NumPy's ``einsum`` without ``optimize`` runs its own compiled sum-of-products loop: it never
    calls BLAS and is compiled for the build's baseline instructions only (no runtime SIMD
    dispatch), so its summation order is fixed for a given NumPy build, whatever
    ``OPENBLAS_CORETYPE`` or ``NPY_DISABLE_CPU_FEATURES`` say (checked by
    ``tests/test_continual_determinism.py``). It is four times faster than ``(a * b).sum(-1)``
    on the simulator's small last axes.

    Examples
    --------
    >>> dot_last(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 1.0])).tolist()
    [3.0, 7.0]
    """
    return _c_einsum("...i,...i->...", a, b)


def portable_power(base: float, exponent: np.ndarray) -> np.ndarray:
    """``base ** exponent`` for integer exponents, from IEEE products only.

    Parameters
    ----------
    base : float
        The base (a Python or NumPy real number).
    exponent : array_like
        Integer-valued exponents (integers, or floats holding integers), of any shape.

    Returns
    -------
    ndarray
        ``base ** exponent`` as float64, of ``exponent``'s shape: the same bits on every
        CPU path.

    Raises
    ------
    ValueError
        If an exponent is not a finite integer value below ``2**62`` in magnitude.

    See Also
    --------
    portable_exp : the exponential, the same way.

    Notes
    -----
    NumPy's ``power`` (and ``float ** ndarray``) has an AVX-512 kernel whose results differ in
    the last bits from the other paths, so bounds such as eq. (19) of [1]_, built from
    :math:`r^{L}` with counts :math:`L`, had machine-dependent last bits. Here
    :math:`b^{k} = \\prod_{i:\\,k_i = 1} b^{2^i}` (binary powering from the lowest bit, the
    squares :math:`b^{2^i}` computed once as Python floats) and :math:`b^{-k} = 1/b^{k}`:
    every step is one correctly rounded product or quotient, so the bits are the same on every
    path. The square :math:`b^{2^i}` carries the rounding of its :math:`i` squarings, a
    relative error up to about :math:`(2^i - 1)\\,2^{-53}`, so the result is within about
    :math:`(|k| + 2\\log_2(|k| + 1))\\,2^{-53}` of :math:`b^k` relative (first order, for a
    normal result): :math:`3\\cdot 10^{-13}` at :math:`|k| = 3000`, against about a unit in the
    last place for ``power``; far below the digits a report prints.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> portable_power(0.5, np.array([0, 1, 3, -2])).tolist()
    [1.0, 0.5, 0.125, 4.0]
    """
    k = np.asarray(exponent)
    if k.dtype.kind not in "iu":
        k = np.asarray(k, dtype=float)
        if not (np.isfinite(k).all() and (k == np.rint(k)).all() and (np.abs(k) < 2.0**62).all()):
            raise ValueError("exponent must hold finite integer values below 2**62 in magnitude")
    n = np.abs(k.astype(np.int64))
    result = np.ones(n.shape)
    square = float(base)
    while n.any():
        odd = (n & 1).astype(bool)
        np.multiply(result, square, out=result, where=odd)
        n = n >> 1
        square *= square
    return np.divide(1.0, result, out=result, where=k < 0)

