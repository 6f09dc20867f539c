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

import math

import numpy as np

__all__ = ["det_exp", "det_log", "det_tanh", "exact_gram", "spd_solve"]

#: ``ln 2`` split so that ``k * _LN2_HI`` is exact for ``|k| < 2^11`` (Cody and Waite).
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e00
#: Taylor coefficients ``1/j!`` of ``exp``, ``j = 13, ..., 0`` (Horner order): on
#: ``|r| <= ln(2)/2`` the truncation error is below ``1e-17`` relative.
_EXP = tuple(1.0 / math.factorial(j) for j in range(13, -1, -1))
#: Taylor coefficients ``1/j!`` of ``expm1``, ``j = 20, ..., 1``: on ``[0, 1]`` the
#: truncation error is below ``1e-19`` relative.
_EXPM1 = tuple(1.0 / math.factorial(j) for j in range(20, 0, -1))
#: Adding ``1.5 * 2^52`` rounds a float below ``2^51`` to an integer, found in the low bits.
_ROUND = 1.5 * 2.0**52
_ROUND_BITS = int(np.array(_ROUND).view(np.int64))


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
    parts so that :math:`k \\ln 2` is exact), then

    .. math::

        e^x = 2^k \\sum_{j=0}^{13} \\frac{r^j}{j!}

    in Horner form. :math:`2^k` is built from its bits and multiplied in (exact) when every
    result is a normal number, else applied by ``ldexp``. Every operation is correctly rounded
    in IEEE 754, so the bits do not depend on the SIMD path; within 1 unit in the last place
    (normal results).

    References
    ----------
    .. [1] W. J. Cody and W. Waite, *Software Manual for the Elementary Functions*, 1980.

    See Also
    --------
    det_log : the logarithm, built on it.
    det_tanh : the hyperbolic tangent, built on it.

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
    r = np.clip(x, -746.0, 710.0)  # exp(-746) rounds to 0 and exp(710) overflows
    k = r * _INV_LN2
    k += _ROUND
    bits = k.view(np.int64) - _ROUND_BITS  # k = rint(x / ln 2) as an integer
    k -= _ROUND  # ... and as a float
    t = k * _LN2_HI
    r -= t
    k *= _LN2_LO
    r -= k  # |r| <= ln(2)/2
    np.multiply(r, _EXP[0], out=t)  # in place from here: no temporaries
    t += _EXP[1]
    for c in _EXP[2:]:
        t *= r
        t += c
    if bits.size and -1021 <= bits.min() and bits.max() <= 1023:  # 2^k t is normal
        bits += 1023
        bits <<= 52
        t *= bits.view(np.float64)
        return t
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
        ``tanh(z)`` elementwise, within 3 units in the last place (``±1`` for
        ``|z| >= 20``, where the rounded value is 1).

    Notes
    -----
    NumPy's ``tanh`` (and ``arctanh``) give other bits on the AVX2 and the baseline SSE
    paths, so fits with tanh experts differed between machines with and without AVX2. With
    :math:`a = |z|`,

    .. math::

        \\tanh z = \\operatorname{sign}(z)\\,\\frac{1 - e^{-2a}}{1 + e^{-2a}}
                  = \\operatorname{sign}(z)\\,\\frac{E}{E + 2}, \\quad E = e^{2a} - 1,

    the first form with :func:`det_exp` for :math:`2a > 1` (no cancellation:
    :math:`e^{-2a} < 0.37`), the second for :math:`2a \\le 1` with :math:`E` the Taylor series
    of ``expm1`` through :math:`(2a)^{20}/20!` (truncation below :math:`10^{-19}`
    relative).

    See Also
    --------
    det_exp : the exponential it uses.

    Examples
    --------
    >>> z = np.linspace(-25, 25, 2001)
    >>> bool(np.max(np.abs(det_tanh(z) - np.tanh(z)) / np.maximum(np.abs(np.tanh(z)), 1e-300))
    ...      < 1e-15)
    True
    >>> det_tanh(np.array([-0.0, 30.0])).tolist()
    [-0.0, 1.0]
    """
    z = np.asarray(z, dtype=float)
    if z.ndim == 0:
        return det_tanh(z[None])[0]
    a = np.minimum(np.abs(z), 20.0)
    a *= -2.0
    e = det_exp(a)
    out = 1.0 - e
    e += 1.0
    out /= e
    small = np.flatnonzero(a >= -1.0)  # 2|z| <= 1: the series of expm1
    if small.size:
        s = -a.ravel()[small]
        p = s * _EXPM1[0]
        p += _EXPM1[1]
        for c in _EXPM1[2:]:
            p *= s
            p += c
        p *= s
        out.ravel()[small] = p / (p + 2.0)
    return np.copysign(out, z, out=out)


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
#: stays in the level-2 cache between the rounding and the product (``n = 10^5``: 40% less
#: time); shorter ones are not split.
_GRAM_BLOCK_SAMPLES = 8192


def exact_gram(Jt: np.ndarray) -> np.ndarray:
    """``J^T J`` per fit from ``Jt = J^T`` of shape (G, P, n), exactly reproducible.

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
    :math:`\\max_m |J_{mp}| < 2^{e_p}` and rounded to an integer, where
    :math:`n\\,2^{2b} < 2^{53}`: every product and partial sum of the matrix product is then
    an integer below :math:`2^{53}`, so BLAS returns the same bits in any summation order,
    blocking or FMA use. Columns below :math:`2^{-900}` round to 0. The result is scaled
    back exactly. The rounding and the product run on blocks of samples, whose integer
    partial sums add exactly. It steers Gauss–Newton/LM steps; it is not :math:`J^\\top J` to full
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
