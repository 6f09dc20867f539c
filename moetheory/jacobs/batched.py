"""Many mixtures (or backpropagation networks) trained at once, with the same bits on every CPU.

The vowel experiments of seed 001 (Jacobs, Jordan, Nowlan & Hinton 1991 [1]_, against
backpropagation networks [2]_) need dozens of replicate trainings of thousands of epochs each.
This module trains ``S`` replicates as one batch: every array has the replicate as its first
axis and the case (training input) as its last, so each product is elementwise and each sum
over cases is :func:`dot_last` or ``ndarray.sum`` along the last axis. No BLAS is called,
and the exponential is :func:`portable_exp_fast`, built from correctly rounded operations
only, so a run gives the same bits whatever BLAS library or SIMD width NumPy uses.

Shapes (``S`` replicates, ``n`` cases, ``k`` experts, ``q`` outputs, ``H`` hidden units):

* inputs ``x0, x1`` (S, n): the two standardised formants;
* targets ``T`` (S, q, n): one-hot classes;
* mixture: gate ``G`` (S, 3, k) and experts ``W`` (S, 3, k, q), row 2 the bias;
  proportions ``p`` (S, k, n), expert outputs ``o`` (S, k, q, n);
* network: hidden ``V`` (S, 3, H), output ``U`` (S, H + 1, q), row ``H`` the bias.

References
----------
.. [1] R. A. Jacobs, M. I. Jordan, S. J. Nowlan and G. E. Hinton, "Adaptive Mixtures of Local
   Experts", Neural Computation 3(1), 1991.
.. [2] D. E. Rumelhart, G. E. Hinton and R. J. Williams, "Learning representations by
   back-propagating errors", Nature 323, 1986.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import numpy as np

from moetheory._doccer import fill_doc
from moetheory.continual.portable import _clip, dot_last

__all__ = [
    "BatchedMLP",
    "BatchedMixture",
    "portable_exp_fast",
    "portable_sigmoid",
]

#: Table size of the reduction: exp(x) = 2^(k/64) exp(r), |r| <= ln(2)/128.
_TABLE_BITS = 6
_N = 1 << _TABLE_BITS


def _constants() -> tuple[float, float, float, np.ndarray, tuple[float, ...]]:
    """Correctly rounded constants (mpmath at 120 bits): the same on every machine."""
    with mpmath.workprec(120):
        step = mpmath.log(2) / _N
        hi = mpmath.floor(step * 2**38) / 2**38  # 32 significant bits: k * hi is exact
        table = np.array([float(mpmath.power(2, mpmath.mpf(j) / _N)) for j in range(_N)])
        taylor = tuple(float(1 / mpmath.factorial(j)) for j in range(5, -1, -1))
        return float(_N / mpmath.log(2)), float(hi), float(step - hi), table, taylor


_INV_STEP, _STEP_HI, _STEP_LO, _TABLE, _TAYLOR = _constants()
_ROUND = 1.5 * 2.0**52
_ROUND_BITS = int(np.array(_ROUND).view(np.int64))
#: Arguments are clipped to this range: ``exp`` stays a normal number (no ``ldexp`` needed).
EXP_RANGE = 700.0
#: Largest ``|k|`` of the reduction on the clipped range, ``rint(64 * 700 / ln 2)``.
_K_MAX = int(np.rint(EXP_RANGE * _INV_STEP))
#: ``2^(k/64)`` for ``k = -_K_MAX .. _K_MAX``: ``_TABLE[k mod 64]`` scaled by ``2^(k // 64)``,
#: exactly (every entry is a normal number), so one lookup replaces the table and the
#: exponent arithmetic.
_POW2 = np.ldexp(_TABLE[np.arange(-_K_MAX, _K_MAX + 1) % _N],
                 np.arange(-_K_MAX, _K_MAX + 1) // _N)
#: Bits of ``1.5 * 2^52 + k`` minus this constant: the index of ``2^(k/64)`` in ``_POW2``.
_INDEX_BIAS = _ROUND_BITS - _K_MAX


def portable_exp_fast(x: np.ndarray, out: np.ndarray | None = None,
                      work: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """``exp(x)`` for ``x`` clipped to ``[-700, 700]``, from IEEE-exact operations only.

    Parameters
    ----------
    x : array_like
        Real arguments; values outside ``[-700, 700]`` are clipped (:math:`e^{-700} \\approx
        10^{-304}`).
    out : ndarray, optional
        Where to write the result (may be ``x`` itself).
    work : tuple of three ndarrays, optional
        Scratch arrays of ``x``'s shape: two float64 and one int64. Passing them (and
        ``out``) makes the call allocate nothing, which matters in training loops: fresh
        large arrays cost page faults.

    Returns
    -------
    ndarray
        ``exp(clip(x))`` within 3 units in the last place, the same bits on every CPU path.

    Notes
    -----
    Table-driven Cody-Waite reduction [1]_: with :math:`k = \\operatorname{rint}(64x/\\ln 2)`,
    :math:`k = 64m + j`, :math:`0 \\le j < 64`, and :math:`r = x - k\\ln 2/64` (the constant
    split in two so that the first product is exact), :math:`|r| \\le \\ln 2/128` and

    .. math:: e^x = 2^{k/64} \\cdot \\sum_{i=0}^{5} r^i/i!, \\qquad 2^{k/64} = 2^m \\cdot 2^{j/64},

    the polynomial's truncation error below :math:`4\\cdot 10^{-17}` relative. The values
    :math:`2^{j/64}` and the coefficients are correctly rounded (mpmath); :math:`2^{k/64}` is
    looked up in a table of the rounded :math:`2^{j/64}` scaled exactly by :math:`2^m`. On the
    clipped range it and the result are normal numbers, so multiplying the polynomial by it
    rounds once, as multiplying by :math:`2^{j/64}` and then (exactly) by :math:`2^m` would.
    Every step is one correctly rounded IEEE operation (or a table lookup), so the result has
    the same bits whatever kernels NumPy selects; it is within 3 units in the last place of
    :math:`e^x`.

    References
    ----------
    .. [1] William J. Cody and William Waite, *Software Manual for the Elementary Functions*,
       1980.

    See Also
    --------
    moetheory.continual.portable.portable_exp : the full-range version (``ldexp`` scaling).
    portable_sigmoid : the logistic function built on it.

    Examples
    --------
    >>> v = portable_exp_fast(np.array([0.0, 1.0, -800.0]))
    >>> float(v[0]), bool(abs(v[1] - np.e) < 1e-15), bool(0 < v[2] < 1e-300)
    (1.0, True, True)
    """
    x = np.asarray(x, dtype=float)
    if work is None:
        work = (np.empty_like(x), np.empty_like(x), np.empty(x.shape, dtype=np.int64))
    if out is None:
        out = np.empty_like(x)
    k, poly, index = work[:3]
    _clip(x, -EXP_RANGE, EXP_RANGE, out=out)  # np.clip's ufunc, without its Python wrapper
    # k = rint(64 x / ln 2): adding 1.5 * 2^52 rounds to an integer (to nearest even, as
    # rint) whose value sits in the low bits of the sum
    np.multiply(out, _INV_STEP, out=k)
    np.add(k, _ROUND, out=k)
    np.subtract(k.view(np.int64), _INDEX_BIAS, out=index)  # k + _K_MAX
    np.subtract(k, _ROUND, out=k)
    np.multiply(k, _STEP_HI, out=poly)
    np.subtract(out, poly, out=out)
    np.multiply(k, _STEP_LO, out=poly)
    np.subtract(out, poly, out=out)  # out = r, |r| <= ln(2)/128
    np.multiply(out, _TAYLOR[0], out=poly)
    np.add(poly, _TAYLOR[1], out=poly)
    for c in _TAYLOR[2:]:
        np.multiply(poly, out, out=poly)
        np.add(poly, c, out=poly)
    # a NaN argument gives an index outside the table: mode "clip" keeps the lookup in it
    # (the NaN polynomial makes the result NaN)
    _POW2.take(index, out=out, mode="clip")
    return np.multiply(poly, out, out=out)


def portable_sigmoid(a: np.ndarray, out: np.ndarray | None = None,
                     work: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """The logistic function ``1 / (1 + exp(-a))`` with :func:`portable_exp_fast`.

    Parameters
    ----------
    a : array_like
        Pre-activations.
    out : ndarray, optional
        Where to write the result (may be ``a`` itself).
    work : tuple of three ndarrays, optional
        Scratch arrays for :func:`portable_exp_fast`.

    Returns
    -------
    ndarray
        :math:`\\sigma(a) = 1/(1 + e^{-a})`, the same bits on every CPU path.

    Notes
    -----
    :math:`\\sigma(a) = 1/(1 + e^{-a})` with one portable exponential, one addition and one
    division, each correctly rounded; :math:`\\sigma(a)` for :math:`a < -700` is the
    (positive) value at :math:`-700`, and :math:`\\sigma(a) = 1` above about 37.

    See Also
    --------
    portable_exp_fast : the exponential used.

    Examples
    --------
    >>> portable_sigmoid(np.array([0.0, 800.0])).tolist()
    [0.5, 1.0]
    """
    a = np.asarray(a, dtype=float)
    out = np.negative(a, out=out)
    return _sigmoid_of_negated(out, out, work)


def _sigmoid_of_negated(b: np.ndarray, out: np.ndarray | None = None,
                        work: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """``1 / (1 + exp(b))``: :func:`portable_sigmoid` of ``-b`` without the negation.

    Rounding to nearest is symmetric, so ``-a`` computed from negated weights has the bits of
    the negated ``a`` (but for the sign of an exact zero, which the exponential maps to 1
    either way): the networks below pass it here and save a pass over their largest arrays.
    """
    out = portable_exp_fast(b, out, work)
    np.add(out, 1.0, out=out)
    return np.divide(1.0, out, out=out)


#: Docstring text the methods below share (see :func:`moetheory._doccer.fill_doc`).
_DOC_PARTS: dict[str, str] = {
    "output": """\
Parameters
----------
x0, x1 : ndarray, shape (S, n)

Returns
-------
ndarray, shape (S, q, n)""",
    "labels": """\
labels : ndarray of int, shape (S, n), optional
    Class labels; if given, the training accuracy before the step is returned.""",
}
_fill_doc = fill_doc(_DOC_PARTS)


class _Scratch:
    """Arrays reused from step to step, one per (name, shape, dtype)."""

    def __init__(self) -> None:
        self._arrays: dict[tuple, np.ndarray] = {}

    def __call__(self, name: str, shape: tuple[int, ...], dtype: type = float) -> np.ndarray:
        key = (name, shape, dtype)
        if key not in self._arrays:
            self._arrays[key] = np.empty(shape, dtype=dtype)
        return self._arrays[key]

    def work(self, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
        return self("exp-k", shape), self("exp-poly", shape), self("exp-index", shape, np.int64)


def _softmax(z: np.ndarray, out: np.ndarray | None = None,
             scratch: _Scratch | None = None) -> np.ndarray:
    """Softmax over axis 1 (the experts), max-shifted, portable."""
    out = np.subtract(z, z.max(axis=1, keepdims=True), out=out)
    portable_exp_fast(out, out, scratch.work(z.shape) if scratch is not None else None)
    return np.divide(out, out.sum(axis=1, keepdims=True), out=out)


def _affine(w: np.ndarray, x0: np.ndarray, x1: np.ndarray, out: np.ndarray | None = None,
            tmp: np.ndarray | None = None) -> np.ndarray:
    """``w[:, 0] x0 + w[:, 1] x1 + w[:, 2]``, ``w`` (S, 3, *shape), ``x`` (S, n): (S, *shape, n)."""
    sel = (slice(None), *(None,) * (w.ndim - 2), slice(None))
    out = np.multiply(w[:, 0, ..., None], x0[sel], out=out)
    tmp = np.multiply(w[:, 1, ..., None], x1[sel], out=tmp)
    np.add(out, tmp, out=out)
    return np.add(out, w[:, 2, ..., None], out=out)


def _affine_grad(d: np.ndarray, x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
    """Mean over cases of ``d * (x0, x1, 1)``: the gradient of :func:`_affine`'s weights."""
    sel = (slice(None), *(None,) * (d.ndim - 2), slice(None))
    grad = np.empty((d.shape[0], 3, *d.shape[1:-1]))  # np.stack's result, without its wrapper
    grad[:, 0] = dot_last(d, x0[sel])
    grad[:, 1] = dot_last(d, x1[sel])
    grad[:, 2] = d.sum(axis=-1)
    grad /= d.shape[-1]
    return grad


def _accuracy(y_out: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Share of cases whose largest output is the label, per replicate: (S, q, n) -> (S,)."""
    hits = np.argmax(y_out, axis=1) == labels
    # what ndarray.mean does on booleans (a float64 sum, divided), without its wrapper
    return np.add.reduce(hits, axis=1, dtype=np.float64) / hits.shape[1]


@dataclass
class BatchedMixture:
    """``S`` gated mixtures of ``k`` sigmoid experts (seed 001), trained as one batch.

    Parameters
    ----------
    gate : ndarray, shape (S, 3, k)
        Gate weights (rows: first formant, second formant, bias); ``p = softmax``.
    experts : ndarray, shape (S, 3, k, q)
        Expert weights; expert :math:`i` outputs :math:`\\sigma(w_i^\\top \\tilde x)`, one sigmoid
        unit per class.

    Notes
    -----
    Losses, per case (seed 001, eqs. 1.1 and 1.3 sign-corrected), with
    :math:`r_i^2 = \\lVert d - o_i \\rVert^2`:

    .. math::

        E_{1.1} = \\Big\\lVert d - \\sum_i p_i o_i \\Big\\rVert^2, \\qquad
        E_{1.3} = -\\log \\sum_i p_i e^{-r_i^2/2}.

    Under 1.3, :math:`\\partial E/\\partial o_i = -h_i (d - o_i)` and
    :math:`\\partial E/\\partial z_i = p_i - h_i` with :math:`h = \\operatorname{softmax}(z -
    r^2/2)` (eq. 1.5 corrected); under 1.1, :math:`\\partial E/\\partial o_i = -2p_i(d - y)`,
    :math:`y = \\sum_i p_i o_i`, and :math:`\\partial E/\\partial z_i = p_i(g_i - \\sum_j p_j
    g_j)`, :math:`g_i = -2(d - y)^T o_i`. Each step is full-batch gradient descent on the mean
    over cases.

    References
    ----------
    .. [1] R. A. Jacobs, M. I. Jordan, S. J. Nowlan and G. E. Hinton, "Adaptive Mixtures of
       Local Experts", Neural Computation, 1991.

    See Also
    --------
    moetheory.jacobs.training.run_specialization_many : trains it on the vowel stand-in.
    moetheory.jacobs.losses.loss_and_gradients : the same gradients for one case.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> net = BatchedMixture(np.zeros((2, 3, 4)), rng.normal(0, 0.5, (2, 3, 4, 4)))
    >>> x0, x1 = rng.normal(size=(2, 10)), rng.normal(size=(2, 10))
    >>> p, o = net.forward(x0, x1)
    >>> p.shape, o.shape, float(p[0, 0, 0])
    ((2, 4, 10), (2, 4, 4, 10), 0.25)
    """

    gate: np.ndarray
    experts: np.ndarray

    def __post_init__(self) -> None:
        self._scratch = _Scratch()

    def forward(self, x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mixing proportions ``p`` (S, k, n) and expert outputs ``o`` (S, k, q, n).

        Parameters
        ----------
        x0, x1 : ndarray, shape (S, n)
            The two inputs of every case of every replicate.

        Returns
        -------
        p : ndarray, shape (S, k, n)
        o : ndarray, shape (S, k, q, n)
        """
        return _softmax(_affine(self.gate, x0, x1)), _sigmoid_of_negated(
            _affine(np.negative(self.experts), x0, x1)
        )

    @_fill_doc
    def output(self, x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
        """The mixture's output ``y = Σ_i p_i o_i``, shape (S, q, n).

        %(output)s
        """
        p, o = self.forward(x0, x1)
        return (p[:, :, None, :] * o).sum(axis=1)

    @_fill_doc
    def step(self, x0: np.ndarray, x1: np.ndarray, T: np.ndarray, loss_name: str,
             lr: float, labels: np.ndarray | None = None) -> np.ndarray | None:
        """One full-batch gradient-descent step on the mean of loss ``loss_name``, in place.

        Parameters
        ----------
        x0, x1 : ndarray, shape (S, n)
        T : ndarray, shape (S, q, n)
            Desired outputs.
        loss_name : {"1.1", "1.3"}
            Eq. 1.1 or sign-corrected eq. 1.3.
        lr : float
            Learning rate.
        %(labels)s

        Returns
        -------
        ndarray of shape (S,) or None
            Accuracy of ``argmax_c Σ_i p_i o_ic`` before the step, if ``labels`` is given.
        """
        sc = self._scratch
        S, k, q, n = self.experts.shape[0], *self.experts.shape[2:], x0.shape[1]
        e_shape, z_shape = (S, k, q, n), (S, k, n)
        z = _affine(self.gate, x0, x1, sc("z", z_shape), sc("z-tmp", z_shape))
        p = _softmax(z, sc("p", z_shape), sc)
        o = _affine(np.negative(self.experts), x0, x1, sc("o", e_shape), sc("e-tmp", e_shape))
        work = sc.work(e_shape)
        _sigmoid_of_negated(o, o, work)
        acc = None
        tmp = sc("e-tmp", e_shape)
        if labels is not None or loss_name == "1.1":
            y = np.add.reduce(np.multiply(p[:, :, None, :], o, out=tmp), axis=1,
                              out=sc("y", T.shape))
            if labels is not None:
                acc = _accuracy(y, labels)
        # the exponential's scratch is free again: it holds da and err (fewer large arrays)
        da = np.subtract(1.0, o, out=work[0])
        np.multiply(da, o, out=da)  # σ'(a) = o (1 - o)
        if loss_name == "1.3":
            err = np.subtract(T[:, None], o, out=work[1])
            r2 = np.add.reduce(np.multiply(err, err, out=tmp), axis=2, out=sc("z-tmp", z_shape))
            np.multiply(r2, -0.5, out=r2)
            np.add(r2, z, out=r2)
            h = _softmax(r2, sc("h", z_shape), sc)
            # dE/do_i = -h_i (d - o_i); dE/dz = p - h
            np.multiply(da, err, out=da)
            np.multiply(da, h[:, :, None, :], out=da)
            scale = -1.0
            dz = np.subtract(p, h, out=p)
        else:
            res = np.subtract(T, y, out=y)
            # dE/do_i = -2 p_i (d - y); dE/dz_i = p_i (g_i - Σ p_j g_j), g_i = -2 (d - y)^T o_i
            g = np.add.reduce(np.multiply(res[:, None], o, out=tmp), axis=2, out=z)
            np.multiply(da, res[:, None], out=da)
            np.multiply(da, p[:, :, None, :], out=da)
            scale = -2.0
            np.subtract(g, (p * g).sum(axis=1, keepdims=True), out=g)
            dz = np.multiply(g, p, out=g)
            np.multiply(dz, -2.0, out=dz)
        self.gate -= lr * _affine_grad(dz, x0, x1)
        self.experts -= (lr * scale) * _affine_grad(da, x0, x1)
        return acc

    def mean_loss(self, x0: np.ndarray, x1: np.ndarray, T: np.ndarray,
                  loss_name: str) -> np.ndarray:
        """Mean over cases of loss ``loss_name`` per replicate, shape (S,).

        Parameters
        ----------
        x0, x1 : ndarray, shape (S, n)
        T : ndarray, shape (S, q, n)
        loss_name : {"1.1", "1.3"}

        Returns
        -------
        ndarray, shape (S,)
        """
        p, o = self.forward(x0, x1)
        if loss_name == "1.3":
            err = T[:, None] - o
            value = -np.log((p * portable_exp_fast(-0.5 * (err * err).sum(axis=2))).sum(axis=1))
        else:
            res = T - (p[:, :, None, :] * o).sum(axis=1)
            value = (res * res).sum(axis=1)
        return value.mean(axis=-1)


@dataclass
class BatchedMLP:
    """``S`` backpropagation networks (2 inputs, ``H`` then ``q`` sigmoid units), trained at once.

    Parameters
    ----------
    hidden : ndarray, shape (S, 3, H)
        Input-to-hidden weights (rows: first formant, second formant, bias).
    out : ndarray, shape (S, H + 1, q)
        Hidden-to-output weights, the last row the bias.

    Notes
    -----
    The baseline of seed 001's vowel experiment, a feed-forward network trained by
    backpropagation [1]_ on the squared error :math:`E = \\lVert d - y\\rVert^2`,
    :math:`y = \\sigma(U^T[\\sigma(V^T\\tilde x); 1])`, full-batch gradient descent on the mean
    over cases. It has :math:`3H + (H+1)q` weights; the mixture of :math:`k` experts has
    :math:`3k + 3kq`.

    References
    ----------
    .. [1] D. E. Rumelhart, G. E. Hinton and R. J. Williams, "Learning representations by
       back-propagating errors", Nature, 1986.

    See Also
    --------
    moetheory.jacobs.vowel.epochs_to_criterion : the epoch comparison that uses it.
    BatchedMixture : the mixture it is compared with.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> net = BatchedMLP(rng.normal(0, 0.5, (2, 3, 8)), rng.normal(0, 0.5, (2, 9, 4)))
    >>> net.output(rng.normal(size=(2, 5)), rng.normal(size=(2, 5))).shape
    (2, 4, 5)
    """

    hidden: np.ndarray
    out: np.ndarray

    def __post_init__(self) -> None:
        self._scratch = _Scratch()

    def _forward(self, x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sc = self._scratch
        S, H, q, n = *self.hidden.shape[:1], self.hidden.shape[2], self.out.shape[2], x0.shape[1]
        hid = _affine(self.hidden, x0, x1, sc("hid", (S, H, n)), sc("hid-tmp", (S, H, n)))
        portable_sigmoid(hid, hid, sc.work((S, H, n)))
        prod = np.multiply(self.out[:, :H, :, None], hid[:, :, None, :],
                           out=sc("prod", (S, H, q, n)))
        a = np.add.reduce(prod, axis=1, out=sc("y", (S, q, n)))
        np.add(a, self.out[:, H, :, None], out=a)
        return hid, portable_sigmoid(a, a, sc.work((S, q, n)))

    @_fill_doc
    def output(self, x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
        """The network's output, shape (S, q, n) (a fresh array).

        %(output)s
        """
        return self._forward(x0, x1)[1].copy()

    @_fill_doc
    def step(self, x0: np.ndarray, x1: np.ndarray, T: np.ndarray, lr: float,
             labels: np.ndarray | None = None) -> np.ndarray | None:
        """One full-batch backpropagation step on the mean squared error, in place.

        Parameters
        ----------
        x0, x1 : ndarray, shape (S, n)
        T : ndarray, shape (S, q, n)
        lr : float
        %(labels)s

        Returns
        -------
        ndarray of shape (S,) or None
            Accuracy of ``argmax_c y_c`` before the step, if ``labels`` is given.
        """
        sc = self._scratch
        hid, y = self._forward(x0, x1)
        H, n = hid.shape[1], hid.shape[2]
        acc = _accuracy(y, labels) if labels is not None else None
        dy = np.subtract(T, y, out=sc("dy", y.shape))
        np.multiply(dy, y, out=dy)
        np.subtract(1.0, y, out=y)
        np.multiply(dy, y, out=dy)  # (d - y) σ'; dE/da = -2 dy
        d_out = np.concatenate(
            [dot_last(hid[:, :, None, :], dy[:, None, :, :]), dy.sum(axis=-1)[:, None]], axis=1
        ) / n
        prod = np.multiply(self.out[:, :H, :, None], dy[:, None, :, :],
                           out=sc("prod", (*hid.shape[:2], y.shape[1], n)))
        dhid = np.add.reduce(prod, axis=2, out=sc("hid-tmp", hid.shape))
        np.multiply(dhid, hid, out=dhid)
        np.subtract(1.0, hid, out=hid)
        np.multiply(dhid, hid, out=dhid)
        self.hidden += (2.0 * lr) * _affine_grad(dhid, x0, x1)
        self.out += (2.0 * lr) * d_out
        return acc
