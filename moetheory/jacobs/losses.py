r"""Losses 1.1-1.3 of Jacobs, Jordan, Nowlan & Hinton (1991) and their gradients.

Notation of seed 001: for one case :math:`c` (dropped below), :math:`d` is the desired output
vector (length :math:`q`), :math:`o_i` the output of expert :math:`i` (:math:`k` experts) and
:math:`p_i` the mixing proportion the gate gives expert :math:`i` (:math:`p_i \ge 0`,
:math:`\sum_i p_i = 1`).

* eq. 1.1 (cooperative): :math:`E = \|d - \sum_i p_i o_i\|^2`
* eq. 1.2 (competitive): :math:`E = \sum_i p_i \|d - o_i\|^2`
* eq. 1.3: :math:`E = -\log \sum_i p_i \exp(\tfrac{s}{2} \|d - o_i\|^2)` with :math:`s = +1`
  *as written in the seed* (``variant="seed"``) and :math:`s = -1` in the corrected form
  (``variant="corrected"``), the negative log-likelihood of a mixture of unit-variance
  Gaussians up to :math:`\tfrac{q}{2} \log 2\pi`.
* eq. 1.4: :math:`\partial E / \partial o_i = -2 p_i (d - o_i)` (stated derivative of 1.2).
* eq. 1.5: :math:`\partial E / \partial o_i = -h_i (d - o_i)` with
  :math:`h_i = p_i \exp(\tfrac{s}{2} r_i^2) / \sum_j p_j \exp(\tfrac{s}{2} r_j^2)` and
  :math:`r_i = \|d - o_i\|` (stated derivative of 1.3, same sign convention).

The module has SymPy versions (for :math:`k` experts and output dimension :math:`q`, and for
symbolic :math:`k`) and vectorised NumPy versions (any leading batch shape).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import sympy as sp

from moetheory._doccer import fill_doc

__all__ = [
    "LOSSES",
    "VARIANTS",
    "MixtureSymbols",
    "eq_1_4",
    "eq_1_4_sym",
    "eq_1_5",
    "eq_1_5_sym",
    "grad_gate_logits",
    "grad_outputs",
    "gradient_sym",
    "loss",
    "loss_1_1_sym",
    "loss_1_2_sym",
    "loss_1_3_sym",
    "loss_and_gradients",
    "mixture_nll_sym",
    "mixture_symbols",
    "responsibilities",
    "validate_mixture",
]

#: Loss names, as numbered in the paper.
LOSSES: tuple[str, ...] = ("1.1", "1.2", "1.3")
#: Sign conventions of eq. 1.3/1.5: ``"seed"`` = :math:`e^{+r^2/2}` as written,
#: ``"corrected"`` = :math:`e^{-r^2/2}`.
VARIANTS: tuple[str, ...] = ("seed", "corrected")

Variant = Literal["seed", "corrected"]
_MAX_SYM = 8

#: Docstring text the functions below share, by key: a placeholder ``%(key)s`` stands for it
#: (see :func:`moetheory._doccer.fill_doc`).
_DOC_PARTS: dict[str, str] = {
    "s": """\
s : MixtureSymbols
    The symbols of one case (:func:`mixture_symbols`).""",
    "sym_expr": """\
Parameters
----------
%(s)s

Returns
-------
sympy.Expr""",
    "index": """\
i : int
    Expert index, 0-based.""",
    "name": """\
name : {"1.1", "1.2", "1.3"}
    The loss, numbered as in the paper.""",
    "dop": """\
d : array_like, shape (..., q)
    Desired output.
o : array_like, shape (..., k, q)
    Expert outputs, row ``i`` = :math:`o_i`.
p : array_like, shape (..., k)
    Mixing proportions (non-negative, summing to 1).""",
    "variant": """\
variant : {"seed", "corrected"}
    Sign of the exponent of eqs. 1.3/1.5: ``"seed"`` = :math:`e^{+r^2/2}` as printed,
    ``"corrected"`` = :math:`e^{-r^2/2}`.""",
    "loss_params": """\
Parameters
----------
%(name)s
%(dop)s
%(variant)s""",
    "mixture_params": """\
Parameters
----------
%(dop)s
%(variant)s""",
    "array_params": """\
Parameters
----------
%(dop)s""",
    "column": """\
Returns
-------
sympy.Matrix, shape (q, 1)""",
    "index_raises": """\
Raises
------
ValueError
    If ``i`` is not in ``[0, k - 1]``.""",
    "index_column": """\
%(index)s

%(column)s

%(index_raises)s""",
    "per_expert": """\
Returns
-------
ndarray, shape (..., k)

%(raises)s""",
    "per_output": """\
Returns
-------
ndarray, shape (..., k, q)

%(raises)s""",
    "raises": """\
Raises
------
ValueError
    For inputs of inconsistent shapes, non-finite values, proportions that are negative
    or do not sum to 1, or an unknown name or variant.""",
    "refs": """\
References
----------
.. [1] R. A. Jacobs, M. I. Jordan, S. J. Nowlan and G. E. Hinton, "Adaptive Mixtures of
   Local Experts", Neural Computation, 1991.""",
}
_fill_doc = fill_doc(_DOC_PARTS)


def _sign(variant: str) -> int:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    return 1 if variant == "seed" else -1


@dataclass(frozen=True)
class MixtureSymbols:
    """SymPy symbols of one case: the vectors ``d``, ``o`` and ``p``.

    ``d`` is :math:`q \\times 1`, ``o`` is :math:`k \\times q` (row :math:`i` is :math:`o_i`)
    and ``p`` has :math:`k` entries.

    Parameters
    ----------
    d : sympy.Matrix, shape (q, 1)
        Desired output :math:`d`.
    o : sympy.Matrix, shape (k, q)
        Expert outputs; row :math:`i` is :math:`o_i^T`.
    p : tuple of sympy.Symbol
        Mixing proportions :math:`p_i > 0`.

    Notes
    -----
    The notation of seed 001 for one case :math:`c` (superscript dropped); see the module
    docstring for the losses built from these symbols.

    See Also
    --------
    mixture_symbols : builds them.

    Examples
    --------
    >>> s = mixture_symbols(2, 3)
    >>> s.k, s.q, s.residual(0).shape
    (2, 3, (3, 1))
    """

    d: sp.Matrix
    o: sp.Matrix
    p: tuple[sp.Symbol, ...]

    @property
    def k(self) -> int:
        """Number of experts."""
        return len(self.p)

    @property
    def q(self) -> int:
        """Output dimension."""
        return self.d.shape[0]

    def residual(self, i: int) -> sp.Matrix:
        """``d - o_i`` as a q x 1 column."""
        return self.d - self.o[i, :].T

    def sq_dist(self, i: int) -> sp.Expr:
        """``||d - o_i||^2``."""
        res = self.residual(i)
        return sp.Add(*[res[m] ** 2 for m in range(self.q)])


def mixture_symbols(k: int, q: int) -> MixtureSymbols:
    """Real symbols ``d_l``, ``o_{i,l}`` and positive ``p_i`` for ``k`` experts, output dim ``q``.

    Parameters
    ----------
    k : int
        Experts, in [1, 8].
    q : int
        Output dimension, in [1, 8].

    Returns
    -------
    MixtureSymbols

    Raises
    ------
    ValueError
        If ``k`` or ``q`` is not an integer in [1, 8].

    Notes
    -----
    :math:`d_l` and :math:`o_{i,l}` are real, :math:`p_i` positive; the constraint
    :math:`\\sum_i p_i = 1` is not imposed (no identity below needs it).

    See Also
    --------
    loss_1_1_sym, loss_1_2_sym, loss_1_3_sym : the losses in these symbols.

    Examples
    --------
    >>> s = mixture_symbols(2, 1)
    >>> s.k, s.q, s.sq_dist(0)
    (2, 1, (d_1 - o_{1,1})**2)
    """
    for name, val in (("k", k), ("q", q)):
        if not isinstance(val, int | np.integer) or not 1 <= val <= _MAX_SYM:
            raise ValueError(f"{name} must be an integer in [1, {_MAX_SYM}], got {val!r}")
    d = sp.Matrix([sp.Symbol(f"d_{m + 1}", real=True) for m in range(q)])
    o = sp.Matrix(k, q, lambda i, m: sp.Symbol(f"o_{{{i + 1},{m + 1}}}", real=True))
    p = tuple(sp.Symbol(f"p_{i + 1}", positive=True) for i in range(k))
    return MixtureSymbols(d, o, p)


@_fill_doc
def loss_1_1_sym(s: MixtureSymbols) -> sp.Expr:
    """Eq. 1.1, ``||d - sum_i p_i o_i||^2``.

    %(sym_expr)s

    Notes
    -----
    Eq. 1.1 of [1]_: :math:`E = \\lVert d - \\sum_i p_i o_i \\rVert^2`, the cooperative loss
    (the experts' outputs are blended before the error is taken).

    %(refs)s

    See Also
    --------
    loss_1_2_sym : the competitive loss.

    Examples
    --------
    >>> loss_1_1_sym(mixture_symbols(1, 1))
    (d_1 - o_{1,1}*p_1)**2
    """
    mean = sp.zeros(s.q, 1)
    for i in range(s.k):
        mean += s.p[i] * s.o[i, :].T
    res = s.d - mean
    return sp.Add(*[res[m] ** 2 for m in range(s.q)])


@_fill_doc
def loss_1_2_sym(s: MixtureSymbols) -> sp.Expr:
    """Eq. 1.2, ``sum_i p_i ||d - o_i||^2``.

    %(sym_expr)s

    Notes
    -----
    Eq. 1.2 of [1]_ (the sum form): :math:`E = \\sum_i p_i \\lVert d - o_i \\rVert^2`; each
    expert is asked for the whole output vector.

    %(refs)s

    See Also
    --------
    eq_1_4_sym : its stated derivative.

    Examples
    --------
    >>> loss_1_2_sym(mixture_symbols(1, 1))
    p_1*(d_1 - o_{1,1})**2
    """
    return sp.Add(*[s.p[i] * s.sq_dist(i) for i in range(s.k)])


@_fill_doc
def loss_1_3_sym(s: MixtureSymbols, variant: Variant = "seed") -> sp.Expr:
    """Eq. 1.3, ``-log sum_i p_i exp(sign/2 ||d - o_i||^2)`` (sign +1 as in the seed).

    Parameters
    ----------
    %(s)s
    %(variant)s

    Returns
    -------
    sympy.Expr

    Raises
    ------
    ValueError
        For an unknown ``variant``.

    Notes
    -----
    Eq. 1.3 of [1]_: :math:`E = -\\log\\sum_i p_i e^{\\pm\\lVert d - o_i\\rVert^2/2}`. Only
    the minus sign gives the mixture negative log-likelihood (claim ``j91.loss.1.3``).

    %(refs)s

    See Also
    --------
    mixture_nll_sym : the likelihood it should equal up to a constant.

    Examples
    --------
    >>> loss_1_3_sym(mixture_symbols(1, 1), "corrected")
    -log(p_1*exp(-(d_1 - o_{1,1})**2/2))
    """
    sign = _sign(variant)
    return -sp.log(
        sp.Add(*[s.p[i] * sp.exp(sp.Rational(sign, 2) * s.sq_dist(i)) for i in range(s.k)])
    )


@_fill_doc
def mixture_nll_sym(s: MixtureSymbols) -> sp.Expr:
    """``-log sum_i p_i N(d; o_i, I_q)``: the mixture negative log-likelihood (exact density).

    %(sym_expr)s

    Notes
    -----
    :math:`-\\log\\sum_i p_i (2\\pi)^{-q/2} e^{-\\lVert d - o_i\\rVert^2/2}`, which equals the
    corrected eq. 1.3 plus :math:`\\tfrac q2\\log 2\\pi`.

    See Also
    --------
    loss_1_3_sym : eq. 1.3.

    Examples
    --------
    >>> mixture_nll_sym(mixture_symbols(1, 1))
    -log(sqrt(2)*p_1*exp(-(d_1 - o_{1,1})**2/2)/(2*sqrt(pi)))
    """
    norm = (2 * sp.pi) ** sp.Rational(-s.q, 2)
    return -sp.log(
        sp.Add(*[s.p[i] * norm * sp.exp(-s.sq_dist(i) / 2) for i in range(s.k)])
    )


@_fill_doc
def gradient_sym(expr: sp.Expr, s: MixtureSymbols, i: int) -> sp.Matrix:
    """``dE/do_i`` as a q x 1 column of partial derivatives.

    Parameters
    ----------
    expr : sympy.Expr
        A loss in the symbols ``s``.
    %(s)s
    %(index_column)s

    Notes
    -----
    :math:`(\\partial E/\\partial o_{i,1}, \\dots, \\partial E/\\partial o_{i,q})^T` by
    SymPy differentiation: the truth the stated eqs. 1.4 and 1.5 are compared with.

    See Also
    --------
    eq_1_4_sym, eq_1_5_sym : the stated derivatives.

    Examples
    --------
    >>> s = mixture_symbols(1, 1)
    >>> gradient_sym(loss_1_2_sym(s), s, 0)
    Matrix([[p_1*(-2*d_1 + 2*o_{1,1})]])
    """
    _check_index(i, s.k)
    return sp.Matrix([sp.diff(expr, s.o[i, m]) for m in range(s.q)])


@_fill_doc
def eq_1_4_sym(s: MixtureSymbols, i: int) -> sp.Matrix:
    """Eq. 1.4 as written: ``-2 p_i (d - o_i)``.

    Parameters
    ----------
    %(s)s
    %(index_column)s

    Notes
    -----
    Eq. 1.4 of [1]_: :math:`\\partial E/\\partial o_i = -2 p_i (d - o_i)`.

    %(refs)s

    See Also
    --------
    loss_1_2_sym : the loss it differentiates.

    Examples
    --------
    >>> eq_1_4_sym(mixture_symbols(1, 1), 0)
    Matrix([[-2*p_1*(d_1 - o_{1,1})]])
    """
    _check_index(i, s.k)
    return -2 * s.p[i] * s.residual(i)


@_fill_doc
def eq_1_5_sym(s: MixtureSymbols, i: int, variant: Variant = "seed") -> sp.Matrix:
    r"""Eq. 1.5: :math:`-h_i (d - o_i)` with the posterior :math:`h_i` of expert :math:`i`.

    Here :math:`h_i = p_i e^{\pm r_i^2/2} / \sum_j p_j e^{\pm r_j^2/2}`.

    Parameters
    ----------
    %(s)s
    %(index)s
    %(variant)s

    %(column)s

    Raises
    ------
    ValueError
        If ``i`` is out of range or ``variant`` unknown.

    Notes
    -----
    Eq. 1.5 of [1]_: :math:`\partial E/\partial o_i = -h_i (d - o_i)` with
    :math:`h_i = p_i e^{\pm r_i^2/2} / \sum_j p_j e^{\pm r_j^2/2}`,
    :math:`r_i = \lVert d - o_i\rVert`.

    %(refs)s

    See Also
    --------
    loss_1_3_sym : the loss it differentiates.

    Examples
    --------
    >>> s = mixture_symbols(1, 1)
    >>> sp.simplify(eq_1_5_sym(s, 0) + s.residual(0)) == sp.zeros(1, 1)
    True
    """
    _check_index(i, s.k)
    sign = sp.Rational(_sign(variant), 2)
    terms = [s.p[j] * sp.exp(sign * s.sq_dist(j)) for j in range(s.k)]
    return -(terms[i] / sp.Add(*terms)) * s.residual(i)


def _check_index(i: int, k: int) -> None:
    if not isinstance(i, int | np.integer) or not 0 <= i < k:
        raise ValueError(f"i (expert index) must be an integer in [0, {k - 1}], got {i!r}")


# --------------------------------------------------------------------------- NumPy versions


@_fill_doc
def validate_mixture(
    d: np.ndarray, o: np.ndarray, p: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Check and convert one case or a batch: ``d (..., q)``, ``o (..., k, q)``, ``p (..., k)``.

    %(array_params)s

    Returns
    -------
    d, o, p : ndarray
        The inputs as float arrays.

    %(raises)s

    Notes
    -----
    Leading axes are a batch of cases; ``p`` must sum to 1 within ``1e-9``.

    See Also
    --------
    loss, loss_and_gradients : the functions that call it.

    Examples
    --------
    >>> validate_mixture([1.0], [[0.0]], [2.0])
    Traceback (most recent call last):
    ...
    ValueError: p (mixing proportions) must be >= 0 and sum to 1 along the last axis
    """
    d = np.asarray(d, dtype=float)
    o = np.asarray(o, dtype=float)
    p = np.asarray(p, dtype=float)
    if o.ndim < 2:
        raise ValueError(f"o (expert outputs) must have shape (..., k, q), got {o.shape}")
    k, q = o.shape[-2:]
    if k < 1:
        raise ValueError(f"k (number of experts, o.shape[-2]) must be >= 1, got {k}")
    if q < 1:
        raise ValueError(f"q (output dimension, o.shape[-1]) must be >= 1, got {q}")
    if d.shape != (*o.shape[:-2], q):
        raise ValueError(f"d (desired output) must have shape {(*o.shape[:-2], q)}, got {d.shape}")
    if p.shape != o.shape[:-1]:
        raise ValueError(f"p (mixing proportions) must have shape {o.shape[:-1]}, got {p.shape}")
    for name, arr in (("d", d), ("o", o), ("p", p)):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite (no NaN or inf)")
    if np.any(p < 0) or not np.allclose(p.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
        raise ValueError("p (mixing proportions) must be >= 0 and sum to 1 along the last axis")
    return d, o, p


def _sq_dist(d: np.ndarray, o: np.ndarray) -> np.ndarray:
    return np.sum((d[..., None, :] - o) ** 2, axis=-1)


def _softmax_log(logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(softmax(logits), logsumexp(logits))`` along the last axis, max-shifted."""
    top = np.max(logits, axis=-1, keepdims=True)
    w = np.exp(logits - top)
    total = np.sum(w, axis=-1, keepdims=True)
    return w / total, (np.log(total) + top)[..., 0]


def _log_terms(d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: str) -> np.ndarray:
    sign = _sign(variant)
    with np.errstate(divide="ignore"):
        return np.log(p) + 0.5 * sign * _sq_dist(d, o)


@_fill_doc
def responsibilities(
    d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: Variant = "corrected"
) -> np.ndarray:
    """The weights ``h_i`` of eq. 1.5 (posterior responsibilities for ``"corrected"``).

    %(mixture_params)s

    %(per_expert)s

    Notes
    -----
    :math:`h_i = p_i e^{\\pm r_i^2/2} / \\sum_j p_j e^{\\pm r_j^2/2}`, computed as a softmax
    of :math:`\\log p_i \\pm r_i^2/2` (max-shifted). With ``"corrected"`` it is the
    posterior probability that expert :math:`i` generated :math:`d`.

    See Also
    --------
    eq_1_5 : the gradient these weights scale.

    Examples
    --------
    >>> responsibilities([0.0], [[0.0], [1.0]], [0.5, 0.5]).round(4)
    array([0.6225, 0.3775])
    """
    d, o, p = validate_mixture(d, o, p)
    return _softmax_log(_log_terms(d, o, p, variant))[0]


def _loss_grads(
    name: str, d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unvalidated loss, ``dE/do`` and ``dE/dz`` (gate logits) for validated inputs."""
    _check_loss(name)
    if name == "1.3":
        h, lse = _softmax_log(_log_terms(d, o, p, variant))
        grad_o = _sign(variant) * h[..., None] * (d[..., None, :] - o)
        return -lse, grad_o, p - h
    if name == "1.1":
        res = d - np.einsum("...k,...kq->...q", p, o)
        value = np.sum(res**2, axis=-1)
        grad_o = -2.0 * p[..., None] * res[..., None, :]
        dp = -2.0 * np.einsum("...q,...kq->...k", res, o)
    else:
        dp = _sq_dist(d, o)
        value = np.sum(p * dp, axis=-1)
        grad_o = -2.0 * p[..., None] * (d[..., None, :] - o)
    return value, grad_o, p * (dp - np.sum(p * dp, axis=-1, keepdims=True))


@_fill_doc
def loss(
    name: str, d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: Variant = "corrected"
) -> np.ndarray:
    """Loss ``name`` (``"1.1"``, ``"1.2"`` or ``"1.3"``) per case; ``variant`` only for 1.3.

    %(loss_params)s

    Returns
    -------
    ndarray, shape (...)
        The loss of each case.

    %(raises)s

    Notes
    -----
    Eqs. 1.1, 1.2 and 1.3 of [1]_ (see the module docstring).

    %(refs)s

    See Also
    --------
    loss_and_gradients : with the gradients.

    Examples
    --------
    >>> float(loss("1.1", [1.0], [[0.0], [2.0]], [0.5, 0.5]))
    0.0
    >>> float(loss("1.2", [1.0], [[0.0], [2.0]], [0.5, 0.5]))
    1.0
    >>> round(float(loss("1.3", [1.0], [[0.0], [2.0]], [0.5, 0.5])), 4)
    0.5
    """
    d, o, p = validate_mixture(d, o, p)
    return _loss_grads(name, d, o, p, variant)[0]


@_fill_doc
def loss_and_gradients(
    name: str, d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: Variant = "corrected"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Loss per case, ``dE/do`` (..., k, q) and ``dE/dz`` (..., k) with ``p = softmax(z)``.

    %(loss_params)s

    Returns
    -------
    value : ndarray, shape (...)
    grad_o : ndarray, shape (..., k, q)
        :math:`\\partial E/\\partial o_i`.
    grad_z : ndarray, shape (..., k)
        :math:`\\partial E/\\partial z_i` for gate logits :math:`z` with
        :math:`p = \\operatorname{softmax}(z)`.

    %(raises)s

    Notes
    -----
    The true derivatives: for 1.2, :math:`-2p_i(d - o_i)` (eq. 1.4); for 1.3,
    :math:`\\mp h_i (d - o_i)` (eq. 1.5 with the sign that matches the variant); for 1.1,
    :math:`-2p_i(d - \\sum_j p_j o_j)`. Gate: :math:`\\partial E/\\partial z_i =
    p_i(\\partial E/\\partial p_i - \\sum_j p_j \\partial E/\\partial p_j)`, which is
    :math:`p_i - h_i` for 1.3.

    See Also
    --------
    grad_outputs, grad_gate_logits : the two gradients alone.

    Examples
    --------
    >>> value, g_o, g_z = loss_and_gradients("1.2", [1.0], [[0.0], [2.0]], [0.5, 0.5])
    >>> float(value), g_o.ravel().tolist(), g_z.tolist()
    (1.0, [-1.0, 1.0], [0.0, 0.0])
    """
    d, o, p = validate_mixture(d, o, p)
    return _loss_grads(name, d, o, p, variant)


@_fill_doc
def eq_1_4(d: np.ndarray, o: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Eq. 1.4, ``-2 p_i (d - o_i)``, shape ``(..., k, q)``.

    %(array_params)s

    %(per_output)s

    Notes
    -----
    Eq. 1.4 of [1]_ as a formula, whether or not it is the derivative of anything.

    %(refs)s

    See Also
    --------
    eq_1_4_sym : the symbolic version.

    Examples
    --------
    >>> eq_1_4([1.0], [[0.0], [2.0]], [0.25, 0.75])
    array([[-0.5],
           [ 1.5]])
    """
    d, o, p = validate_mixture(d, o, p)
    return -2.0 * p[..., None] * (d[..., None, :] - o)


@_fill_doc
def eq_1_5(
    d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: Variant = "corrected"
) -> np.ndarray:
    """Eq. 1.5 as a formula, ``-h_i (d - o_i)``, shape ``(..., k, q)``, ``h`` of ``variant``.

    %(mixture_params)s

    %(per_output)s

    Notes
    -----
    Eq. 1.5 of [1]_ as a formula: :math:`-h_i (d - o_i)` with :math:`h` from
    :func:`responsibilities`.

    %(refs)s

    See Also
    --------
    eq_1_5_sym : the symbolic version.

    Examples
    --------
    >>> eq_1_5([0.0], [[2.0], [1.0]], [0.5, 0.5]).round(4)
    array([[0.3649],
           [0.8176]])
    """
    d, o, p = validate_mixture(d, o, p)
    h = _softmax_log(_log_terms(d, o, p, variant))[0]
    return -h[..., None] * (d[..., None, :] - o)


@_fill_doc
def grad_outputs(
    name: str, d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: Variant = "corrected"
) -> np.ndarray:
    """The true derivative ``dE/do_i`` of loss ``name``, shape ``(..., k, q)``.

    For 1.3 ``"seed"`` this is ``+h_i (d - o_i)`` (the opposite sign of eq. 1.5 as written).

    %(loss_params)s

    %(per_output)s

    Notes
    -----
    The second output of :func:`loss_and_gradients`.

    See Also
    --------
    eq_1_4, eq_1_5 : the stated formulas.

    Examples
    --------
    >>> grad_outputs("1.1", [1.0], [[0.0], [1.0]], [0.5, 0.5])
    array([[-0.5],
           [-0.5]])
    """
    return loss_and_gradients(name, d, o, p, variant)[1]


@_fill_doc
def grad_gate_logits(
    name: str, d: np.ndarray, o: np.ndarray, p: np.ndarray, variant: Variant = "corrected"
) -> np.ndarray:
    """``dE/dz_i`` where ``p = softmax(z)`` (the gate's logits), shape ``(..., k)``.

    %(loss_params)s

    %(per_expert)s

    Notes
    -----
    :math:`\\partial E/\\partial z_i = p_i(\\partial E/\\partial p_i - \\sum_j p_j\\,
    \\partial E/\\partial p_j)`; for 1.3 this is :math:`p_i - h_i`.

    See Also
    --------
    loss_and_gradients : all gradients at once.

    Examples
    --------
    >>> grad_gate_logits("1.3", [0.0], [[0.0], [1.0]], [0.5, 0.5]).round(4)
    array([-0.1225,  0.1225])
    """
    return loss_and_gradients(name, d, o, p, variant)[2]


def _check_loss(name: str) -> None:
    if name not in LOSSES:
        raise ValueError(f"name (loss) must be one of {LOSSES}, got {name!r}")
