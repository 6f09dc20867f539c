"""Deterministic elementary functions and linear algebra: the same bits on every SIMD path
and BLAS library.

NumPy's ``exp``, ``log`` and ``tanh`` dispatch to different SIMD kernels (AVX2, AVX-512,
baseline SSE) that differ in the last bit; everything downstream of a least-squares fit can
then land elsewhere. :func:`det_exp`, :func:`det_tanh` and :func:`det_log` use only IEEE-exact
elementary operations (``+``, ``*``, ``/``, ``rint``, ``frexp``, ``ldexp``, bit shifts),
whose results do not depend on the code path; :func:`exact_gram` and :func:`spd_solve`
do the same for the normal equations.
"""

from __future__ import annotations

import numpy as np

__all__ = ["det_exp", "det_log", "det_tanh", "exact_gram", "spd_solve"]

#: ``ln 2`` split so that ``k * _LN2_HI`` is exact for ``|k| < 2^11`` (Cody and Waite).
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e00
#: Coefficients of the minimax approximation :math:`r \coth(r/2) \approx 2 + P_1 r^2 + \dots
#: + P_5 r^{10}` on :math:`|r| \le \ln(2)/2` (error below :math:`2^{-59}`), published with
#: Sun Microsystems' fdlibm (``e_exp.c``, 1993); here ``P_5, ..., P_1`` (Horner order).
_P = (4.13813679705723846039e-08, -1.65339022054652515390e-06, 6.61375632143793436117e-05,
      -2.77777777770155933842e-03, 1.66666666666666019037e-01)
#: Adding ``1.5 * 2^52`` rounds a float below ``2^51`` to an integer, found in the low bits.
_ROUND = 1.5 * 2.0**52
_ROUND_BITS = int(np.array(_ROUND).view(np.int64))


def _reduce(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cody–Waite reduction ``x = k ln 2 + (hi - lo)``: ``hi``, ``lo`` and ``k`` (int64)."""
    k = x * _INV_LN2
    k += _ROUND
    bits = k.view(np.int64) - _ROUND_BITS  # k = rint(x / ln 2) as an integer
    k -= _ROUND  # ... and as a float
    hi = k * _LN2_HI
    np.subtract(x, hi, out=hi)  # exact: k * _LN2_HI has trailing zeros and hi is near x
    k *= _LN2_LO
    return hi, k, bits


def _expm1_reduced(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """``e^r - 1`` for ``r = hi - lo``, ``|r| <= ln(2)/2``, as ``hi - (lo - r c/(2 - c))``."""
    r = hi - lo
    t = r * r
    c = t * _P[0]  # in place from here: no temporaries
    for coef in _P[1:]:
        c += coef
        c *= t
    np.subtract(r, c, out=c)  # c = r - t P(t)
    r *= c
    np.subtract(2.0, c, out=c)
    r /= c  # r c / (2 - c)
    np.subtract(lo, r, out=r)
    return np.subtract(hi, r, out=r)


def _power_of_two(bits: np.ndarray) -> np.ndarray:
    """``2.0**bits`` for integers ``-1022 <= bits <= 1023``, built from its bits (in place)."""
    bits += 1023
    bits <<= 52
    return bits.view(np.float64)


def det_exp(x: np.ndarray) -> np.ndarray:
    """``exp(x)`` from IEEE-exact operations only: the same bits on every SIMD path.

    Parameters
    ----------
    x : array_like
        Arguments.

    Returns
    -------
    ndarray
        ``exp(x)`` elementwise; ``0`` below about ``-745.2`` (subnormal results near it),
        ``inf`` above ``log(DBL_MAX)``, NaN for NaN.

    Notes
    -----
    Cody–Waite reduction [1]_ :math:`x = k \\ln 2 + r` with
    :math:`k = \\mathrm{rint}(x/\\ln 2)`, :math:`|r| \\le \\ln(2)/2` (``ln 2`` split in two
    parts so that :math:`k \\ln 2` is exact and :math:`r` is carried as ``hi - lo``), then
    the rational form of fdlibm [2]_

    .. math::

        e^r = 1 + r + \\frac{r\\,c}{2 - c}, \\qquad
        c = r - r^2 P(r^2) \\approx r - \\bigl(r \\coth\\tfrac r2 - 2\\bigr),

    with :math:`P` of degree 4 (error of :math:`2 + r^2 P(r^2)` below :math:`2^{-59}`), and
    :math:`e^x = 2^k e^r`. :math:`2^k` is built from its bits and multiplied in (exact) when
    every argument lies in :math:`[-707, 709]` (every result normal, no clamping), else the
    arguments are clamped to :math:`[-746, 710]` and :math:`2^k` applied by ``ldexp``. Every
    operation is correctly rounded in IEEE 754, so the bits do not depend on the SIMD path;
    within 1 unit in the last place (normal results; 0.87 the largest error against 80-bit
    ``long double`` on :math:`5 \\cdot 10^6` arguments, where the Taylor polynomial of degree
    13 used before gave 1.14).

    References
    ----------
    .. [1] William J. Cody and William Waite, *Software Manual for the Elementary Functions*,
       1980.
    .. [2] Sun Microsystems, fdlibm 5.3, ``e_exp.c`` (1993).

    See Also
    --------
    det_log : the logarithm, built on it.
    det_tanh : the hyperbolic tangent, on the same reduction.

    Examples
    --------
    >>> x = np.linspace(-30, 30, 101)
    >>> bool(np.max(np.abs(det_exp(x) / np.exp(x) - 1)) < 1e-15)
    True
    >>> det_exp(np.array([-800.0, 0.0, 800.0])).tolist()
    [0.0, 1.0, inf]
    """
    x = np.asarray(x, dtype=float)
    if x.ndim == 0:  # operations on 0-d arrays return scalars, which cannot be updated in place
        return det_exp(x[None])[0]
    if x.size and -707.0 <= x.min() and x.max() <= 709.0:  # -1020 <= k <= 1023: no clamp,
        hi, lo, bits = _reduce(x)  # and 2^k e^r is normal
        t = _expm1_reduced(hi, lo)
        t += 1.0
        t *= _power_of_two(bits)
        return t
    x = np.maximum(x, -746.0)  # exp(-746) rounds to 0 and exp(710) overflows
    np.minimum(x, 710.0, out=x)
    hi, lo, bits = _reduce(x)
    t = _expm1_reduced(hi, lo)
    t += 1.0
    with np.errstate(over="ignore", under="ignore"):  # inf, subnormal or 0 (or NaN)
        return np.ldexp(t, bits, out=t)


def det_tanh(z: np.ndarray) -> np.ndarray:
    """``tanh(z)`` from IEEE-exact operations only: the same bits on every SIMD path.

    Parameters
    ----------
    z : array_like
        Arguments.

    Returns
    -------
    ndarray
        ``tanh(z)`` elementwise, within 2.5 units in the last place (``±1`` for
        ``|z| >= 20``, where the rounded value is 1).

    Notes
    -----
    NumPy's ``tanh`` (and ``arctanh``) give other bits on the AVX2 and the baseline SSE
    paths, so fits with tanh experts differed between machines with and without AVX2. With
    :math:`a = \\min(|z|, 20)`,

    .. math::

        \\tanh z = \\operatorname{sign}(z)\\,\\frac{E}{E + 2}, \\qquad
        E = e^{2a} - 1 = 2^k\\,(e^r - 1) + (2^k - 1),

    with the reduction :math:`2a = k \\ln 2 + r` of :func:`det_exp` and :math:`e^r - 1` from
    the same rational form, which has no cancellation at small :math:`r` (:math:`k = 0`
    below :math:`2a = \\ln(2)/2`, where :math:`E = e^{2a} - 1` itself; for :math:`k \\ge 1`,
    :math:`E > 0.4`). One formula for every argument: no branch, no gather of the small
    arguments. Against 80-bit ``long double`` on :math:`6 \\cdot 10^6` arguments the largest
    error is 2.31 units in the last place, near :math:`|z| = 0.03`–:math:`0.12` (the former
    series of ``expm1`` below :math:`2|z| = 1`: 3.12); the test suite keeps the bound.

    See Also
    --------
    det_exp : the exponential, on the same reduction.

    Examples
    --------
    >>> z = np.linspace(-25, 25, 2001)
    >>> bool(np.max(np.abs(det_tanh(z) - np.tanh(z)) / np.maximum(np.abs(np.tanh(z)), 1e-300))
    ...      < 1e-15)
    True
    >>> det_tanh(np.array([-0.0, 1e-300, 30.0])).tolist()
    [-0.0, 1e-300, 1.0]
    """
    z = np.asarray(z, dtype=float)
    if z.ndim == 0:
        return det_tanh(z[None])[0]
    x = np.abs(z)
    np.minimum(x, 20.0, out=x)
    x += x  # 2a, exact
    hi, lo, bits = _reduce(x)
    e = _expm1_reduced(hi, lo)
    scale = _power_of_two(bits)  # 2^k, k <= 58
    e *= scale
    scale -= 1.0
    e += scale  # E = e^(2a) - 1
    np.add(e, 2.0, out=x)
    e /= x
    return np.copysign(e, z, out=e)


def det_log(x: np.ndarray) -> np.ndarray:
    """``log(x)`` for ``x > 0`` from IEEE-exact operations and :func:`det_exp` only.

    Parameters
    ----------
    x : array_like
        Finite positive arguments.

    Returns
    -------
    ndarray
        ``log(x)`` elementwise.

    Raises
    ------
    ValueError
        If some ``x`` is not finite or not positive.

    Notes
    -----
    :math:`x = m 2^e` with :math:`m \\in [1/2, 1)` (``frexp``, exact); start from
    :math:`y_0 = e \\ln 2 + 2 (m - 1)/(m + 1)` and take five Halley steps

    .. math::

        y \\leftarrow y + 2 \\frac{x - e^y}{x + e^y}

    (cubic convergence), with :func:`det_exp`: a fixed sequence of operations, hence the same
    bits on every path.

    See Also
    --------
    det_exp : the exponential it inverts.

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


#: Samples per block of :func:`exact_gram` when there are more: a block of a long Jacobian
#: stays in the level-2 cache between the rounding and the product (:math:`n = 10^5`: 40% less
#: time); shorter ones are not split.
_GRAM_BLOCK_SAMPLES = 8192


def exact_gram(Jt: np.ndarray) -> np.ndarray:
    r""":math:`J^\top J` per fit from ``Jt`` (:math:`J^\top`, shape (G, P, n)), reproducibly.

    Parameters
    ----------
    Jt : ndarray of shape (G, P, n)
        Transposed Jacobians (any strides: a transposed view of (G, n, P) works).

    Returns
    -------
    ndarray of shape (G, P, P)
        The Gram matrices of ``J`` rounded to a fixed-point grid per column.

    Notes
    -----
    Each column :math:`p` is scaled by a power of two :math:`2^{b - e_p}` with
    :math:`\max_m |J_{mp}| < 2^{e_p}` and rounded to an integer, where
    :math:`n\,2^{2b} < 2^{53}`: every product and partial sum of the matrix product is then
    an integer below :math:`2^{53}`, so BLAS returns the same bits in any summation order,
    blocking or FMA use. Columns below :math:`2^{-900}` round to 0. The result is scaled
    back exactly. The rounding and the product run on blocks of samples, whose integer
    partial sums add exactly. It steers Gauss–Newton/LM steps; it is not :math:`J^\top J` to full
    precision (relative error about :math:`2^{-b}`).

    See Also
    --------
    spd_solve : solves the damped normal equations.

    Examples
    --------
    >>> J = np.array([[[1.0, 0.5], [0.25, 2.0], [3.0, 1.0]]])  # (G, n, P)
    >>> exact_gram(J.transpose(0, 2, 1)).tolist()
    [[[10.0625, 4.0], [4.0, 5.25]]]
    """
    g, p, n = Jt.shape
    bits = (53 - int(np.ceil(np.log2(n + 1))) - 1) // 2
    blocks = [slice(s, s + _GRAM_BLOCK_SAMPLES) for s in range(0, n, _GRAM_BLOCK_SAMPLES)]
    scale = np.zeros((g, p))
    for sl in blocks:  # the largest |J| of each column (a maximum: exact in any order)
        np.maximum(scale, np.max(np.abs(Jt[:, :, sl]), axis=2), out=scale)
    _, expo = np.frexp(np.where(scale > 0, scale, 1.0))  # scale < 2**expo
    up = np.ldexp(1.0, (bits - np.maximum(expo, -900)).astype(np.int64))
    A = np.zeros((g, p, p))
    for sl in blocks:  # integer sums below 2**53: exact, so blocks do not change the bits
        Jq = Jt[:, :, sl] * up[:, :, None]
        np.rint(Jq, out=Jq)
        A += np.matmul(Jq, Jq.transpose(0, 2, 1))
    down = 1.0 / up
    return A * down[:, :, None] * down[:, None, :]


def spd_solve(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Solve ``A x = b`` for a batch of symmetric positive definite ``A``, without LAPACK.

    Parameters
    ----------
    A : ndarray of shape (G, P, P)
        Symmetric positive definite matrices.
    b : ndarray of shape (G, P)
        Right-hand sides.

    Returns
    -------
    ndarray of shape (G, P)

    Notes
    -----
    Gaussian elimination without pivoting on :math:`[A \\mid b]` (stable for symmetric
    positive definite :math:`A`; pivots floored at :math:`10^{-300}`), then back
    substitution, both as rank-one updates: for :math:`j = 1, \\dots, P`, row :math:`j` is
    divided by its pivot :math:`a_{jj}` and

    .. math::

        a_{ik} \\leftarrow a_{ik} - a_{ij}\\,(a_{jk}/a_{jj}), \\qquad i, k > j,

    then :math:`x_P = c_P` and :math:`c_i \\leftarrow c_i - u_{ij} x_j` for :math:`i < j`,
    :math:`j = P, \\dots, 2`. Every operation is one elementwise IEEE ``*``, ``-`` or ``/``
    with no sum in between: the same bits on every BLAS/LAPACK and SIMD path as scalar
    floating-point code doing the same steps, and each system's bits do not depend on the
    others in the batch. Python-level steps are :math:`2P`, against :math:`4P` reductions
    for a column Cholesky factorisation with two substitutions (the cost for the small
    systems of a Levenberg--Marquardt step).

    See Also
    --------
    exact_gram

    Examples
    --------
    >>> A = np.array([[[4.0, 2.0], [2.0, 3.0]]]); b = np.array([[2.0, 1.0]])
    >>> spd_solve(A, b).tolist()
    [[0.5, 0.0]]
    """
    g, p, _ = A.shape
    M = np.empty((p, p + 1, g))  # the systems innermost: each step is one contiguous pass
    M[:, :p] = A.transpose(1, 2, 0)
    M[:, p] = b.T
    update = np.empty((p - 1, p, g))
    for j in range(p):
        row = M[j, j + 1 :]
        row /= np.maximum(M[j, j], 1e-300)
        rank_one = update[: p - j - 1, : p - j]
        np.multiply(M[j + 1 :, j, None], row, out=rank_one)
        M[j + 1 :, j + 1 :] -= rank_one
    x = M[:, p].copy()
    for j in range(p - 1, 0, -1):
        x[:j] -= M[:j, j] * x[j]
    return x.T.copy()
