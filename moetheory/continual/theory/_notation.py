"""Notation of the closed forms: the symbols, the readings of the garbled pair sum, and the
moments :math:`r, N, S, D` of concrete ground truths."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.continual.theory import _docs

__all__ = [
    "FORGETTING_READINGS",
    "GENERALIZATION_READINGS",
    "PAIR_READINGS",
    "D",
    "N",
    "S",
    "T",
    "overparam_ratio",
    "pair_gap_sum",
    "r",
    "t",
]

#: Over-parameterisation ratio :math:`r = 1 - s/d` (:func:`overparam_ratio`).
r = sp.Symbol("r", positive=True)
#: The last round :math:`T` (of :math:`G_T`).
T = sp.Symbol("T", integer=True, positive=True)
#: A round :math:`t` (of :math:`F_t`).
t = sp.Symbol("t", integer=True, positive=True)
#: Number of ground truths (tasks) :math:`N`.
N = sp.Symbol("N", integer=True, positive=True)
#: :math:`S = \sum_n \|w_n\|^2`.
S = sp.Symbol("S", nonnegative=True)
#: :math:`D = \sum_{n, n'} \|w_{n'} - w_n\|^2` over ordered pairs (:func:`pair_gap_sum`).
D = sp.Symbol("D", nonnegative=True)
_i = sp.Symbol("i", integer=True, positive=True)
_l = sp.Symbol("l", integer=True, positive=True)
_tau = sp.Symbol("tau", integer=True, positive=True)

#: Readings of the seed's "sum_{n=n'} ||w_n' - w_n||^2", as multiples of ``D`` (ordered pairs).
PAIR_READINGS: dict[str, sp.Expr] = {
    "ordered": sp.Integer(1),
    "unordered": sp.Rational(1, 2),
    "diagonal": sp.Integer(0),
}

#: Readings of eq. (18): the pair-sum reading only.
GENERALIZATION_READINGS: tuple[str, ...] = tuple(PAIR_READINGS)

#: Readings of eq. (17) (main text, first exponent as printed ``r^{t-tau}``, as ``r^t - r^tau``
#: or as ``r^tau - r^t``) and of the
#: Appendix H form (with the paper's substitution E||w_{n_l} - w_{n_i}||^2 = D/N^2 for every
#: ``l``, with or without the stray factor ``i``), each combined with a pair-sum reading.
FORGETTING_READINGS: tuple[str, ...] = tuple(
    f"{form}/{pairs}"
    for form in (
        "main-as-printed",
        "main-rt-minus-rtau",
        "main-rtau-minus-rt",
        "appendix-H",
        "appendix-H-factor-i",
    )
    for pairs in PAIR_READINGS
)



@fill_doc(_docs.OVERPARAM)
def overparam_ratio(s: int, d: int) -> float:
    r"""Over-parameterisation ratio :math:`r = 1 - s/d` of Section 5.

    Parameters
    ----------
    s : int
        Samples per task, ``1 <= s < d``.
    d : int
        Dimension of the features and models, ``d >= 2``.

    Returns
    -------
    float
        :math:`r \in (0, 1)`.

    %(raises)s

    See Also
    --------
    expected_error_expr : where :math:`r` enters, as the contraction of one round.

    Notes
    -----
    In the over-parameterised regime :math:`s < d` of [1]_ the update (5) projects onto an
    :math:`s`-dimensional subspace; for Gaussian features :math:`\mathbb{E}[I - P_t] = r I`,
    so :math:`r` is the expected fraction of a model error that survives one round.

    %(references)s

    Examples
    --------
    >>> overparam_ratio(6, 10)
    0.4
    >>> overparam_ratio(10, 10)
    Traceback (most recent call last):
    ...
    ValueError: s must satisfy 1 <= s < d (over-parameterised), got s=10, d=10
    """
    if not (isinstance(d, int | np.integer) and d >= 2):
        raise ValueError(f"d must be an integer >= 2, got {d!r}")
    if not (isinstance(s, int | np.integer) and 1 <= s < d):
        raise ValueError(f"s must satisfy 1 <= s < d (over-parameterised), got s={s}, d={d}")
    return 1.0 - s / d


def _ground_truths(W: np.ndarray) -> np.ndarray:
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] < 1 or W.shape[1] < 1:
        raise ValueError(f"W (ground truths) must have shape (N, d) with N, d >= 1, got {W.shape}")
    if not np.all(np.isfinite(W)):
        raise ValueError("W (ground truths) must be finite")
    return W


@fill_doc(_docs.REFERENCES)
def pair_gap_sum(W: np.ndarray, reading: str = "ordered") -> float:
    r"""The seed's pair sum ":math:`\sum_{n=n'} \|w_{n'} - w_n\|^2`" of eqs. (17)-(22).

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths :math:`w_1, \dots, w_N`.
    reading : {"ordered", "unordered", "diagonal"}, optional
        Reading of the garbled sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    float
        :math:`c \cdot D` with :math:`D = \sum_{n, n'} \|w_{n'} - w_n\|^2` over ordered pairs
        and :math:`c = 1, \frac12, 0` for the three readings.

    Raises
    ------
    ValueError
        If ``reading`` is unknown or ``W`` is not a finite (N, d) array.

    See Also
    --------
    PAIR_READINGS : the readings as multiples of :math:`D`.

    Notes
    -----
    The translation prints the subscript as ":math:`n = n'`", which taken literally is the
    diagonal and sums to 0. The derivation in Appendix H of [1]_ needs
    :math:`\mathbb{E}\|w_{n_l} - w_{n_i}\|^2 = D/N^2` for independent uniform tasks, i.e. the
    sum over all ordered pairs.

    %(references)s

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> pair_gap_sum(W, "ordered"), pair_gap_sum(W, "unordered"), pair_gap_sum(W, "diagonal")
    (4.0, 2.0, 0.0)
    """
    _check_reading(reading, PAIR_READINGS)
    W = _ground_truths(W)
    diff = W[:, None, :] - W[None, :, :]
    return float(PAIR_READINGS[reading]) * float(np.sum(diff**2))


def _check_reading(reading: str, readings: Iterable[str], name: str = "reading") -> None:
    """Raise ``ValueError`` unless ``reading`` is one of ``readings`` (named ``name``)."""
    if reading not in readings:
        raise ValueError(f"{name} must be one of {tuple(readings)}, got {reading!r}")


def _gap(pairs: str) -> sp.Expr:
    """The pair-sum term :math:`c D / N^2` of a pair reading (``KeyError`` if unknown)."""
    return PAIR_READINGS[pairs] * D / N**2


def _check_t(values: Sequence[int] | np.ndarray, name: str, low: int) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(values))
    if arr.size == 0 or not np.issubdtype(arr.dtype, np.integer) or np.any(arr < low):
        raise ValueError(f"{name} must be integers >= {low}, got {values!r}")
    return arr.astype(int)


def _moments(W: np.ndarray, s: int, d: int) -> tuple[float, int, float, float]:
    W = _ground_truths(W)
    return overparam_ratio(s, d), W.shape[0], float(np.sum(W**2)), pair_gap_sum(W, "ordered")

