"""The vowel experiments of seed 001 on the stand-in: epochs to a criterion, and locality.

Seed 001 (a review of Jacobs, Jordan, Nowlan & Hinton 1991 [1]_) reports three results of the
vowel experiment: the mixture "reached the error criterion significantly faster than the
back propagation networks and required half as many epochs on average"; "learning time for
the mixture model also scales well as number of experts increased" (4 to 8 experts); and
"the linear models could classify well within a specific region of the input space". This
module measures each on the stand-in data of :mod:`moetheory.jacobs.training` (2-D formant
inputs, 4 vowel classes, 50 training and 25 test speakers), many replicates at once with the
portable batched networks of :mod:`moetheory.jacobs.batched`.

* :func:`epochs_to_criterion`: full-batch gradient-descent epochs until the training
  accuracy first reaches a criterion, for a mixture of ``k`` experts (loss 1.3,
  sign-corrected) or a backpropagation network with ``H`` sigmoid hidden units.
* :func:`region_accuracy`: accuracy of each expert inside the region its gate owns versus
  the accuracy of the other experts there.

References
----------
.. [1] R. A. Jacobs, M. I. Jordan, S. J. Nowlan and G. E. Hinton, "Adaptive Mixtures of Local
   Experts", Neural Computation, 1991.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory.jacobs.batched import BatchedMixture, BatchedMLP
from moetheory.jacobs.training import (
    N_TRAIN,
    VOWEL_FORMANTS,
    init_batched_mixture,
    one_hot,
    standin_batch,
    train_standin_mixtures,
)

__all__ = [
    "EpochsResult",
    "RegionAccuracy",
    "epochs_to_criterion",
    "init_batched_mlp",
    "mixture_parameters",
    "mlp_parameters",
    "region_accuracy",
]

Q = len(VOWEL_FORMANTS)


def mixture_parameters(k: int, q: int = Q) -> int:
    """Weights of a mixture of ``k`` one-layer sigmoid experts on 2-D inputs with a linear gate.

    Parameters
    ----------
    k : int
        Number of experts.
    q : int
        Outputs (classes).

    Returns
    -------
    int
        :math:`3k` (gate) :math:`+ 3kq` (experts), biases included.

    Notes
    -----
    The gate is linear in :math:`(x_1, x_2, 1)`: :math:`3k` weights; each expert has
    :math:`q` sigmoid units on :math:`(x_1, x_2, 1)`: :math:`3q` weights.

    See Also
    --------
    mlp_parameters : the backpropagation network's count.

    Examples
    --------
    >>> mixture_parameters(4), mixture_parameters(8)
    (60, 120)
    """
    return 3 * k + 3 * k * q


def mlp_parameters(hidden: int, q: int = Q) -> int:
    """Weights of a sigmoid network (2 inputs, ``hidden`` then ``q`` units), biases included.

    Parameters
    ----------
    hidden : int
        Hidden units ``H``.
    q : int
        Outputs (classes).

    Returns
    -------
    int
        :math:`3H + (H + 1)q`.

    Notes
    -----
    :math:`3H` input-to-hidden weights (two inputs and a bias per hidden unit) and
    :math:`(H + 1)q` hidden-to-output weights. :math:`H = 8` matches a mixture of 4 experts
    (60 weights); :math:`H = 16` nearly matches 8 experts (116 vs 120).

    See Also
    --------
    mixture_parameters : the mixture's count.

    Examples
    --------
    >>> mlp_parameters(8), mlp_parameters(16)
    (60, 116)
    """
    return 3 * hidden + (hidden + 1) * q


def init_batched_mlp(hidden: int, rngs: list[np.random.Generator]) -> BatchedMLP:
    """Backpropagation networks, :math:`N(0, 0.5^2)` weights (as the experts), one per generator.

    Parameters
    ----------
    hidden : int
        Hidden units ``H >= 1``.
    rngs : list of numpy.random.Generator
        One per replicate; each draws the hidden weights (3, H), then the output weights
        (H + 1, 4).

    Returns
    -------
    BatchedMLP

    Raises
    ------
    ValueError
        If ``hidden`` is not a positive integer.

    Notes
    -----
    The experts of :func:`moetheory.jacobs.training.init_mixture` start from the same
    :math:`N(0, 0.5^2)`, so neither model gets a better-scaled start.

    See Also
    --------
    moetheory.jacobs.training.init_batched_mixture : the mixture's initialisation.

    Examples
    --------
    >>> init_batched_mlp(6, [np.random.default_rng(0)]).out.shape
    (1, 7, 4)
    """
    if not isinstance(hidden, int) or hidden < 1:
        raise ValueError(f"hidden must be an integer >= 1, got {hidden!r}")
    return BatchedMLP(
        np.stack([rng.normal(0.0, 0.5, size=(3, hidden)) for rng in rngs]),
        np.stack([rng.normal(0.0, 0.5, size=(hidden + 1, Q)) for rng in rngs]),
    )


@dataclass(frozen=True)
class EpochsResult:
    """Epochs to the criterion, per replicate.

    Parameters
    ----------
    epochs : ndarray of int, shape (S,)
        Gradient steps taken before the training accuracy first reached the criterion;
        ``max_epochs`` for a replicate that never reached it (censored).
    reached : ndarray of bool, shape (S,)
        Whether the criterion was reached within ``max_epochs`` steps.

    Notes
    -----
    A censored replicate's count is a lower bound on its epochs to the criterion.

    See Also
    --------
    epochs_to_criterion : produces it.

    Examples
    --------
    >>> EpochsResult(np.array([12, 30]), np.array([True, False])).reached.tolist()
    [True, False]
    """

    epochs: np.ndarray
    reached: np.ndarray


def epochs_to_criterion(
    model: str,
    size: int,
    rngs: list[np.random.Generator],
    criterion: float,
    max_epochs: int,
    lr: float = 1.0,
) -> EpochsResult:
    """Train on the stand-in until the training accuracy reaches ``criterion``.

    Parameters
    ----------
    model : {"mixture", "backprop"}
        A mixture of ``size`` experts trained on loss 1.3 (sign-corrected), or a
        backpropagation network with ``size`` hidden units trained on the squared error.
    size : int
        Experts ``k`` or hidden units ``H``.
    rngs : list of numpy.random.Generator
        One per replicate: it draws the data (:func:`moetheory.jacobs.training.standin_batch`),
        then the initial weights. Generators seeded alike give the two models the same data.
    criterion : float
        Training accuracy to reach, in (0, 1].
    max_epochs : int
        Cap on the gradient steps.
    lr : float
        Learning rate of full-batch gradient descent on the mean loss.

    Returns
    -------
    EpochsResult

    Raises
    ------
    ValueError
        For an unknown ``model``, ``criterion`` outside (0, 1], ``max_epochs < 1`` or
        ``lr <= 0``.

    Notes
    -----
    Accuracy is the share of the 400 training cases whose largest output is their class.
    It is measured before every step, so a replicate that starts at the criterion has 0
    epochs; a replicate that has reached it leaves the batch (the others' bits do not
    depend on it), and training stops when every replicate has reached it.

    See Also
    --------
    region_accuracy : the locality experiment on the same stand-in.
    moetheory.jacobs.batched.BatchedMixture, moetheory.jacobs.batched.BatchedMLP : the models.

    Examples
    --------
    >>> res = epochs_to_criterion("mixture", 4, [np.random.default_rng(0)], 0.6, 500)
    >>> bool(res.reached[0]), 0 < int(res.epochs[0]) < 500
    (True, True)
    """
    if model not in ("mixture", "backprop"):
        raise ValueError(f"model must be 'mixture' or 'backprop', got {model!r}")
    if not 0 < criterion <= 1:
        raise ValueError(f"criterion must lie in (0, 1], got {criterion!r}")
    if not isinstance(max_epochs, int) or max_epochs < 1:
        raise ValueError(f"max_epochs must be an integer >= 1, got {max_epochs!r}")
    if not (np.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be a finite number > 0, got {lr!r}")
    x0, x1, y = standin_batch(rngs)
    x0, x1, y = x0[:, :N_TRAIN].copy(), x1[:, :N_TRAIN].copy(), y[:, :N_TRAIN].copy()
    T = one_hot(y)
    net: BatchedMixture | BatchedMLP = (
        init_batched_mixture(size, rngs) if model == "mixture" else init_batched_mlp(size, rngs))
    epochs = np.full(len(rngs), max_epochs)
    reached = np.zeros(len(rngs), dtype=bool)
    active = np.arange(len(rngs))  # the replicates still training, in order
    for epoch in range(max_epochs + 1):
        if isinstance(net, BatchedMixture):
            acc = net.step(x0, x1, T, "1.3", lr, labels=y)
        else:
            acc = net.step(x0, x1, T, lr, labels=y)
        new: np.ndarray = np.asarray(acc) >= criterion
        epochs[active[new]] = epoch
        reached[active[new]] = True
        if new.all():
            break
        if new.any():  # drop the replicates that reached it (each trains on its own)
            keep = ~new
            active, x0, x1, T, y = active[keep], x0[keep], x1[keep], T[keep], y[keep]
            net = _subset(net, keep)
    return EpochsResult(epochs, reached)


def _subset(net: BatchedMixture | BatchedMLP, keep: np.ndarray) -> BatchedMixture | BatchedMLP:
    """The replicates ``keep`` of a batch of networks (copies of their weights).

    Every operation of :mod:`moetheory.jacobs.batched` is elementwise across replicates (or
    a sum along the case axis), so a replicate's training does not depend on the others in
    its batch: dropping the finished ones changes no bit of the rest.
    """
    if isinstance(net, BatchedMixture):
        return BatchedMixture(net.gate[keep], net.experts[keep])
    return BatchedMLP(net.hidden[keep], net.out[keep])


@dataclass(frozen=True)
class RegionAccuracy:
    """Test-set accuracies of each expert inside and outside the region its gate owns.

    Parameters
    ----------
    inside : ndarray, shape (S,)
        Accuracy of the owning expert (``argmax_i p_i(x)``) on its own cases.
    outside : ndarray, shape (S,)
        Accuracy on the same cases of the other experts in use (mean over them); NaN for a
        replicate with one expert in use.
    mixture : ndarray, shape (S,)
        Accuracy of the whole mixture, ``argmax_c Σ_i p_i o_ic``.
    in_use : ndarray of int, shape (S,)
        Experts that own at least ``min_share`` of the test cases.

    Notes
    -----
    The region of an expert is the set of test cases where the gate gives it the largest
    proportion; see :func:`region_accuracy`.

    See Also
    --------
    region_accuracy : produces it.

    Examples
    --------
    >>> r = RegionAccuracy(np.array([0.9]), np.array([0.1]), np.array([0.9]), np.array([2]))
    >>> float(r.inside[0] - r.outside[0])
    0.8
    """

    inside: np.ndarray
    outside: np.ndarray
    mixture: np.ndarray
    in_use: np.ndarray


def region_accuracy(
    k: int, rngs: list[np.random.Generator], epochs: int, lr: float = 1.0,
    min_share: float = 0.05,
) -> RegionAccuracy:
    """Train mixtures (loss 1.3) and measure each expert's accuracy in and out of its region.

    Parameters
    ----------
    k : int
        Experts.
    rngs : list of numpy.random.Generator
        One per replicate (data, then initial weights).
    epochs : int
        Full-batch gradient-descent steps.
    lr : float
        Learning rate.
    min_share : float
        An expert is in use if the gate gives it the largest proportion on at least this
        share of the test cases.

    Returns
    -------
    RegionAccuracy

    Raises
    ------
    ValueError
        If ``epochs < 1`` or ``min_share`` is outside (0, 1).

    Notes
    -----
    The region of expert :math:`i` is :math:`R_i = \\{x : i = \\arg\\max_j p_j(x)\\}` over the
    100 test speakers' cases. With :math:`c_j(x) = [\\arg\\max_l o_{jl}(x) = y(x)]`,
    ``inside`` is :math:`\\frac1n\\sum_x c_{i(x)}(x)` and ``outside`` the mean over test cases
    of :math:`c_j(x)` averaged over the in-use experts :math:`j \\ne i(x)`.

    See Also
    --------
    epochs_to_criterion : the epoch experiment on the same stand-in.
    moetheory.jacobs.training.run_specialization_many : the mixing proportions of such runs.

    Examples
    --------
    >>> r = region_accuracy(4, [np.random.default_rng(0)], epochs=50)
    >>> r.inside.shape, bool(0 <= r.inside[0] <= 1)
    ((1,), True)
    """
    if not isinstance(epochs, int) or epochs < 1:
        raise ValueError(f"epochs must be an integer >= 1, got {epochs!r}")
    if not 0 < min_share < 1:
        raise ValueError(f"min_share must lie in (0, 1), got {min_share!r}")
    net, x0, x1, y = train_standin_mixtures(k, "1.3", rngs, epochs, lr)
    p, o = net.forward(x0[:, N_TRAIN:].copy(), x1[:, N_TRAIN:].copy())
    y_test = y[:, N_TRAIN:]
    owner = np.argmax(p, axis=1)  # (S, n)
    correct = np.argmax(o, axis=2) == y_test[:, None, :]  # (S, k, n)
    mixed = np.argmax((p[:, :, None, :] * o).sum(axis=1), axis=1) == y_test
    share = (owner[:, None, :] == np.arange(k)[None, :, None]).mean(axis=2)  # (S, k)
    used = share >= min_share
    inside = np.take_along_axis(correct, owner[:, None, :], axis=1)[:, 0, :].mean(axis=1)
    others = used[:, :, None] & (np.arange(k)[None, :, None] != owner[:, None, :])  # (S, k, n)
    count = others.sum(axis=1)
    with np.errstate(invalid="ignore"):
        per_case = (correct & others).sum(axis=1) / count
        outside = np.where(count.min(axis=1) > 0, per_case.mean(axis=1), np.nan)
    return RegionAccuracy(inside, outside, mixed.mean(axis=1), used.sum(axis=1))
