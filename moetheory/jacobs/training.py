r"""Small NumPy training of the gated mixture of Jacobs et al. (1991) on a vowel stand-in.

The vowel data of the paper (Peterson & Barney 1952 formants of [i], [ɪ], [a], [ʌ] from 75
speakers) is not available here. :func:`vowel_standin` generates a documented stand-in with
the same layout: 2-D inputs (first and second formant, F1 and F2, in Hz), four classes,
75 speakers of whom the first 50 are for training and the remaining 25 for testing, two
tokens per speaker and vowel.

* Class centres are the Peterson & Barney averages for adult men (F1, F2):
  [i] (270, 2290), [ɪ] (390, 1990), [a] (730, 1090), [ʌ] (640, 1190).
* Speaker ``s`` has a vocal-tract scale :math:`\lambda_s \sim U[1.0, 1.35]` (men to children) that
  multiplies both formants, so classes are elongated along the diagonal and [i]/[ɪ] and
  [a]/[ʌ] overlap, as in the real data.
* Each token multiplies each formant by :math:`e^{\varepsilon}`,
  :math:`\varepsilon \sim N(0, 0.06^2)`.
* Inputs are standardised with the training mean and standard deviation.

The network (seed 001): a softmax gate, linear in the input (with bias), and ``k`` experts,
each a single layer of ``q = 4`` sigmoid units (one linear boundary per output) on the same
input. The targets are one-hot class vectors. Training is full-batch gradient descent on
the mean over cases of loss 1.1 or of loss 1.3 (sign-corrected, see
:mod:`moetheory.jacobs.losses`). :func:`train` does it for one mixture with the gradients of
that module; the experiments (:func:`run_specialization_many`, :mod:`moetheory.jacobs.vowel`)
train many replicates as one batch with :class:`moetheory.jacobs.batched.BatchedMixture`,
whose results are the same bits on every CPU. The gate starts at zero (equal proportions,
the paper's "unbiased state"); expert weights start :math:`N(0, 0.5^2)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory.jacobs.batched import BatchedMixture
from moetheory.jacobs.losses import loss_and_gradients

__all__ = [
    "BATCH_ELEMENTS",
    "N_TRAIN",
    "VOWEL_FORMANTS",
    "MixtureNet",
    "TrainResult",
    "forward",
    "gradients",
    "init_batched_mixture",
    "init_mixture",
    "one_hot",
    "run_specialization",
    "run_specialization_many",
    "standin_batch",
    "train",
    "train_standin_mixtures",
    "vowel_standin",
]

#: Peterson & Barney (1952) mean F1, F2 (Hz) of adult men for the four vowels of the paper.
VOWEL_FORMANTS: dict[str, tuple[float, float]] = {
    "i": (270.0, 2290.0),
    "ɪ": (390.0, 1990.0),
    "a": (730.0, 1090.0),
    "ʌ": (640.0, 1190.0),
}
#: Training cases of the stand-in: the first 50 speakers, 4 vowels, 2 tokens each.
N_TRAIN = 50 * len(VOWEL_FORMANTS) * 2


def vowel_standin(
    n_speakers: int, rng: np.random.Generator, repetitions: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """Formant inputs ``X`` (n, 2) in Hz and labels ``y`` (n,), speaker-major order.

    Parameters
    ----------
    n_speakers : int
        Speakers, at least 1 (the experiments use 75: 50 for training, 25 for testing).
    rng : numpy.random.Generator
        Source of the speaker scales and token noise.
    repetitions : int
        Tokens per speaker and vowel (2 in the experiments).

    Returns
    -------
    X : ndarray, shape (4 * n_speakers * repetitions, 2)
        First and second formant (F1, F2) in Hz.
    y : ndarray of int
        Class of each row: 0 [i], 1 [ɪ], 2 [a], 3 [ʌ].

    Raises
    ------
    ValueError
        If ``n_speakers`` or ``repetitions`` is not a positive integer.

    Notes
    -----
    Token :math:`t` of speaker :math:`s` and vowel :math:`c` is
    :math:`X = \\mu_c \\, \\lambda_s \\, e^{\\varepsilon}` (elementwise), with
    :math:`\\mu_c` the Peterson & Barney mean formants of adult men (:data:`VOWEL_FORMANTS`),
    :math:`\\lambda_s \\sim U[1, 1.35]` one vocal-tract scale per speaker and
    :math:`\\varepsilon \\sim N(0, 0.06^2 I_2)`. It stands in for the vowel data of seed 001
    (Jacobs et al. 1991 [1]_ used Peterson & Barney's recordings [2]_), which is not available.

    References
    ----------
    .. [1] R. A. Jacobs, M. I. Jordan, S. J. Nowlan and G. E. Hinton, "Adaptive Mixtures of
       Local Experts", Neural Computation, 1991.
    .. [2] G. E. Peterson and H. L. Barney, "Control Methods Used in a Study of the Vowels",
       J. Acoust. Soc. Am. 24, 1952.

    See Also
    --------
    standin_batch : many standardised data sets at once.

    Examples
    --------
    >>> X, y = vowel_standin(3, np.random.default_rng(0))
    >>> X.shape, y.tolist()[:8]
    ((24, 2), [0, 0, 1, 1, 2, 2, 3, 3])
    """
    if not isinstance(n_speakers, int) or n_speakers < 1:
        raise ValueError(f"n_speakers must be an integer >= 1, got {n_speakers!r}")
    if not isinstance(repetitions, int) or repetitions < 1:
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    centres = np.array(list(VOWEL_FORMANTS.values()))
    n_cls = len(centres)
    scale = rng.uniform(1.0, 1.35, size=n_speakers)
    y = np.tile(np.repeat(np.arange(n_cls), repetitions), n_speakers)
    spk = np.repeat(np.arange(n_speakers), n_cls * repetitions)
    noise = np.exp(rng.normal(0.0, 0.06, size=(y.size, 2)))
    return centres[y] * scale[spk, None] * noise, y


@dataclass
class MixtureNet:
    """One gated mixture of sigmoid experts (seed 001): its weights.

    Parameters
    ----------
    gate : ndarray, shape (3, k)
        Gate weights; rows: first input, second input, bias. ``p = softmax(x̃ @ gate)``.
    experts : ndarray, shape (k, 3, q)
        Expert ``i`` outputs ``σ(x̃ @ experts[i])``, ``q`` sigmoid units; row 2 the bias.

    Notes
    -----
    With :math:`\\tilde x = (x_1, x_2, 1)`, the mixture outputs
    :math:`y = \\sum_i p_i(x) o_i(x)`, :math:`p = \\operatorname{softmax}(G^T \\tilde x)`,
    :math:`o_i = \\sigma(W_i^T \\tilde x)`.

    See Also
    --------
    init_mixture : the initial weights.
    moetheory.jacobs.batched.BatchedMixture : many mixtures trained as one batch.

    Examples
    --------
    >>> MixtureNet(np.zeros((3, 4)), np.zeros((4, 3, 4))).k
    4
    """

    gate: np.ndarray
    experts: np.ndarray

    @property
    def k(self) -> int:
        """Number of experts."""
        return self.gate.shape[1]


def init_mixture(k: int, q: int, rng: np.random.Generator) -> MixtureNet:
    """Zero gate (equal mixing proportions) and :math:`N(0, 0.5^2)` expert weights.

    Parameters
    ----------
    k : int
        Experts, at least 1.
    q : int
        Outputs per expert, at least 1.
    rng : numpy.random.Generator
        Source of the expert weights.

    Returns
    -------
    MixtureNet

    Raises
    ------
    ValueError
        If ``k`` or ``q`` is not a positive integer.

    Notes
    -----
    A zero gate gives :math:`p_i(x) = 1/k` at every input: the "unbiased state" of seed 001
    (claim ``j91.equal-proportions``). The random expert weights break the symmetry
    (claim ``j91.symmetry``).

    See Also
    --------
    init_batched_mixture : the same draws for many replicates.

    Examples
    --------
    >>> init_mixture(4, 4, np.random.default_rng(0)).experts.shape
    (4, 3, 4)
    """
    for name, val in (("k", k), ("q", q)):
        if not isinstance(val, int) or val < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {val!r}")
    return MixtureNet(np.zeros((3, k)), rng.normal(0.0, 0.5, size=(k, 3, q)))


def _augment(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or X.shape[0] < 1:
        raise ValueError(f"X must have shape (n, 2) with n >= 1, got {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must be finite (no NaN or inf)")
    return np.hstack([X, np.ones((X.shape[0], 1))])


def forward(net: MixtureNet, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mixing proportions ``p`` (n, k) and expert outputs ``o`` (n, k, q).

    Parameters
    ----------
    net : MixtureNet
    X : ndarray, shape (n, 2)
        Finite inputs.

    Returns
    -------
    p : ndarray, shape (n, k)
        Softmax of the gate logits.
    o : ndarray, shape (n, k, q)
        Sigmoid outputs of the experts.

    Raises
    ------
    ValueError
        If ``X`` is not a finite (n, 2) array with at least one row.

    Notes
    -----
    :math:`p = \\operatorname{softmax}(\\tilde X G)` (max-shifted),
    :math:`o_i = \\sigma(\\tilde X W_i)`, :math:`\\tilde X = [X, 1]`. NumPy's own ``exp``
    and ``@``: results may differ in the last bits between CPUs (the experiments use
    :class:`moetheory.jacobs.batched.BatchedMixture`, which does not).

    See Also
    --------
    gradients : the loss and its gradients at these outputs.

    Examples
    --------
    >>> net = init_mixture(2, 4, np.random.default_rng(0))
    >>> p, o = forward(net, np.zeros((5, 2)))
    >>> p[0].tolist(), o.shape
    ([0.5, 0.5], (5, 2, 4))
    """
    Xa = _augment(X)
    z = Xa @ net.gate
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    k, _, q = net.experts.shape
    weights = net.experts.transpose(1, 0, 2).reshape(3, k * q)
    o = 1.0 / (1.0 + np.exp(-(Xa @ weights).reshape(-1, k, q)))
    return p, o


def gradients(
    net: MixtureNet, X: np.ndarray, T: np.ndarray, loss_name: str
) -> tuple[float, np.ndarray, np.ndarray]:
    """Mean loss over cases and its gradients with respect to ``gate`` and ``experts``.

    Parameters
    ----------
    net : MixtureNet
    X : ndarray, shape (n, 2)
        Inputs.
    T : ndarray, shape (n, q)
        Desired outputs.
    loss_name : {"1.1", "1.2", "1.3"}
        The loss of seed 001; 1.3 is the sign-corrected one (``variant="corrected"``).

    Returns
    -------
    value : float
        Mean loss over the ``n`` cases.
    d_gate : ndarray, shape (3, k)
    d_experts : ndarray, shape (k, 3, q)

    Raises
    ------
    ValueError
        For a bad ``X``, ``T`` of the wrong shape or an unknown loss.

    Notes
    -----
    Chain rule through :func:`moetheory.jacobs.losses.loss_and_gradients`:
    :math:`\\partial E/\\partial W_i = \\tilde x\\,(\\partial E/\\partial o_i \\odot
    o_i \\odot (1 - o_i))^T` and :math:`\\partial E/\\partial G = \\tilde x\\,
    (\\partial E/\\partial z)^T`, averaged over cases.

    See Also
    --------
    train : gradient descent with these gradients.

    Examples
    --------
    >>> net = init_mixture(2, 1, np.random.default_rng(0))
    >>> value, dg, de = gradients(net, np.zeros((3, 2)), np.ones((3, 1)), "1.3")
    >>> dg.shape, de.shape
    ((3, 2), (2, 3, 1))
    """
    Xa = _augment(X)
    T = np.asarray(T, dtype=float)
    p, o = forward(net, X)
    if T.shape != (Xa.shape[0], o.shape[2]):
        raise ValueError(f"T (targets) must have shape {(Xa.shape[0], o.shape[2])}, got {T.shape}")
    n = Xa.shape[0]
    values, grad_o, dz = loss_and_gradients(loss_name, T, o, p)
    da = (grad_o * o * (1.0 - o)).reshape(n, -1)
    d_experts = (Xa.T @ da / n).reshape(3, net.k, -1).transpose(1, 0, 2)
    return float(np.mean(values)), Xa.T @ dz / n, d_experts


def _check_training(loss_name: str, epochs: int, lr: float) -> None:
    """The arguments shared by :func:`train` and :func:`run_specialization_many`."""
    if loss_name not in ("1.1", "1.3"):
        raise ValueError(f"loss_name must be '1.1' or '1.3', got {loss_name!r}")
    if not isinstance(epochs, int) or epochs < 1:
        raise ValueError(f"epochs must be an integer >= 1, got {epochs!r}")
    if not (np.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be a finite number > 0, got {lr!r}")


def train(
    net: MixtureNet, X: np.ndarray, T: np.ndarray, loss_name: str, epochs: int, lr: float
) -> list[float]:
    """Full-batch gradient descent in place; returns the loss before each epoch.

    Parameters
    ----------
    net : MixtureNet
        Updated in place.
    X : ndarray, shape (n, 2)
    T : ndarray, shape (n, q)
    loss_name : {"1.1", "1.3"}
        Loss 1.1 or sign-corrected loss 1.3.
    epochs : int
        Steps, at least 1.
    lr : float
        Learning rate, finite and > 0.

    Returns
    -------
    list of float
        The mean loss before each step.

    Raises
    ------
    ValueError
        For an unknown loss, ``epochs < 1`` or a bad ``lr`` (and bad ``X``, ``T``).

    Notes
    -----
    :math:`\\theta \\leftarrow \\theta - \\eta \\nabla_\\theta \\frac1n\\sum_c E^c`.

    See Also
    --------
    run_specialization_many : batched training on the stand-in.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> net = init_mixture(2, 1, rng)
    >>> X = rng.normal(size=(20, 2)); T = (X[:, :1] > 0).astype(float)
    >>> hist = train(net, X, T, "1.3", epochs=50, lr=1.0)
    >>> hist[-1] < hist[0]
    True
    """
    _check_training(loss_name, epochs, lr)
    history = []
    for _ in range(epochs):
        value, dg, de = gradients(net, X, T, loss_name)
        history.append(value)
        net.gate -= lr * dg
        net.experts -= lr * de
    return history


@dataclass(frozen=True)
class TrainResult:
    """Outcome of one training run.

    Parameters
    ----------
    k : int
        Experts.
    loss_name : str
        "1.1" or "1.3".
    mixing : ndarray, shape (k,)
        Mean of :math:`p_i(x)` over the test inputs.
    peak : ndarray, shape (k,)
        Maximum of :math:`p_i(x)` over the test inputs.
    in_use : int
        Experts with ``mixing > threshold``.
    in_use_peak : int
        Experts with ``peak > threshold``.
    train_accuracy, test_accuracy : float
        Share of cases whose largest mixture output is their class.
    final_loss : float
        Mean training loss after the last step.

    Notes
    -----
    Seed 001: "all but 2 or 3 had mixing proportions that were effectively 0"; ``in_use``
    and ``in_use_peak`` are the two readings of claim ``j91.specialization``.

    See Also
    --------
    run_specialization_many : produces it.

    Examples
    --------
    >>> m = np.array([0.5, 0.5, 0.0, 0.0])
    >>> TrainResult(4, "1.3", m, m, 2, 2, 0.9, 0.9, 0.1).to_dict()["in_use"]
    2
    """

    k: int
    loss_name: str
    mixing: np.ndarray
    peak: np.ndarray
    in_use: int
    in_use_peak: int
    train_accuracy: float
    test_accuracy: float
    final_loss: float

    def to_dict(self) -> dict[str, object]:
        """The run for evidence: rounded numbers, mixing proportions sorted decreasingly."""
        return {
            "k": self.k,
            "loss": self.loss_name,
            "mixing": np.round(np.sort(self.mixing)[::-1], 4),
            "in_use": self.in_use,
            "in_use_peak": self.in_use_peak,
            "train_accuracy": round(self.train_accuracy, 4),
            "test_accuracy": round(self.test_accuracy, 4),
            "final_loss": round(self.final_loss, 5),
        }


def run_specialization(
    k: int,
    loss_name: str,
    rng: np.random.Generator,
    epochs: int,
    lr: float = 1.0,
    threshold: float = 0.05,
) -> TrainResult:
    """Generate the stand-in data, train one mixture and measure its mixing proportions.

    Parameters
    ----------
    k : int
        Experts.
    loss_name : {"1.1", "1.3"}
        Loss 1.1 or sign-corrected loss 1.3.
    rng : numpy.random.Generator
        Draws the data, then the initial expert weights.
    epochs : int
        Full-batch gradient-descent steps.
    lr : float
        Learning rate.
    threshold : float
        In-use threshold of the mixing proportions, in (0, 1).

    Returns
    -------
    TrainResult

    Raises
    ------
    ValueError
        As :func:`run_specialization_many`.

    Notes
    -----
    ``run_specialization_many(k, loss_name, [rng], ...)[0]``: one replicate of the batch.

    See Also
    --------
    run_specialization_many : the batched version.

    Examples
    --------
    >>> r = run_specialization(4, "1.3", np.random.default_rng(0), epochs=5)
    >>> r.mixing.shape, round(float(r.mixing.sum()), 6)
    ((4,), 1.0)
    """
    return run_specialization_many(k, loss_name, [rng], epochs, lr, threshold)[0]



def standin_batch(
    rngs: list[np.random.Generator],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Draw one stand-in data set per generator and standardise it with its training part.

    Parameters
    ----------
    rngs : list of numpy.random.Generator
        One generator per replicate; each draws ``vowel_standin(75, rng)`` (and nothing else).

    Returns
    -------
    x0, x1 : ndarray, shape (S, 600)
        First and second formant, standardised with the mean and standard deviation of the
        first :data:`N_TRAIN` cases (the first 50 speakers).
    y : ndarray of int, shape (S, 600)
        Class labels.

    Raises
    ------
    ValueError
        If ``rngs`` is empty.

    Notes
    -----
    Standardisation :math:`x \\mapsto (x - \\bar x)/s` with the training cases' mean and
    (population) standard deviation, per replicate; the test cases use the same constants.

    See Also
    --------
    vowel_standin : one raw data set.

    Examples
    --------
    >>> x0, x1, y = standin_batch([np.random.default_rng(0), np.random.default_rng(1)])
    >>> x0.shape, abs(float(x0[0, :N_TRAIN].mean())) < 1e-12, int(y.max())
    ((2, 600), True, 3)
    """
    if not rngs:
        raise ValueError("rngs must hold at least one generator")
    xs, ys = [], []
    for rng in rngs:
        X, y = vowel_standin(75, rng)
        mu, sd = X[:N_TRAIN].mean(axis=0), X[:N_TRAIN].std(axis=0)
        xs.append((X - mu) / sd)
        ys.append(y)
    X_all = np.stack(xs)
    return X_all[:, :, 0].copy(), X_all[:, :, 1].copy(), np.stack(ys)


def one_hot(y: np.ndarray, q: int = 4) -> np.ndarray:
    """One-hot targets ``T`` (S, q, n): entry ``(s, c, j)`` is 1 where ``y[s, j] == c``.

    Parameters
    ----------
    y : ndarray of int, shape (S, n)
    q : int
        Number of classes.

    Returns
    -------
    ndarray, shape (S, q, n)

    Notes
    -----
    The desired output :math:`d` of seed 001 for a case of class :math:`c` is the unit
    vector :math:`e_c`.

    See Also
    --------
    standin_batch : the labels.

    Examples
    --------
    >>> one_hot(np.array([[0, 2]]), 3)[0].tolist()
    [[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]]
    """
    return (y[:, None, :] == np.arange(q)[None, :, None]).astype(float)


def init_batched_mixture(k: int, rngs: list[np.random.Generator]) -> BatchedMixture:
    """Zero gates and :func:`init_mixture` expert weights for every replicate, batched.

    Parameters
    ----------
    k : int
        Number of experts.
    rngs : list of numpy.random.Generator
        One per replicate, each drawn from after its data (as :func:`run_specialization`).

    Returns
    -------
    BatchedMixture

    Notes
    -----
    Replicate ``s`` gets exactly the expert weights :func:`init_mixture` draws from
    ``rngs[s]`` (transposed to the batched layout (3, k, q)), and a zero gate.

    See Also
    --------
    init_mixture : the one-mixture version.

    Examples
    --------
    >>> init_batched_mixture(4, [np.random.default_rng(0)]).experts.shape
    (1, 3, 4, 4)
    """
    q = len(VOWEL_FORMANTS)
    experts = np.stack([init_mixture(k, q, rng).experts.transpose(1, 0, 2) for rng in rngs])
    return BatchedMixture(np.zeros((len(rngs), 3, k)), experts)


#: Elements of the largest arrays of a training step, ``(S, k, q, n)``, per batch of
#: replicates: :func:`train_standin_mixtures` trains the replicates in batches of about this
#: size, whose working set stays in a core's cache: 1.2x (4 experts) and 1.3x (8 experts)
#: faster than one batch of 43 (2026-12-07, a shared 2-core machine, 100 epochs of loss 1.3).
#: A replicate's bits do not depend on its batch.
BATCH_ELEMENTS = 1 << 16


def train_standin_mixtures(
    k: int,
    loss_name: str,
    rngs: list[np.random.Generator],
    epochs: int,
    lr: float = 1.0,
) -> tuple[BatchedMixture, np.ndarray, np.ndarray, np.ndarray]:
    """Draw each replicate's stand-in data and train mixtures on its training cases.

    Parameters
    ----------
    k, loss_name, rngs, epochs, lr
        As :func:`run_specialization_many`: experts, loss (``"1.1"`` or ``"1.3"``), one
        generator per replicate (the data of :func:`standin_batch`, then the weights of
        :func:`init_batched_mixture`), gradient steps on the first :data:`N_TRAIN` cases,
        learning rate.

    Returns
    -------
    net : BatchedMixture
        The trained mixtures.
    x0, x1, y : ndarray, shape (S, 600)
        Every case's standardised formants (the training cases first) and class label.

    Raises
    ------
    ValueError
        From :func:`standin_batch`, if ``rngs`` is empty.

    Notes
    -----
    The arguments are not checked here (the callers check them). The replicates are trained
    in batches of :data:`BATCH_ELEMENTS` expert outputs (every operation of
    :class:`~moetheory.jacobs.batched.BatchedMixture` is elementwise across replicates or a
    sum along the case axis, so a replicate's bits do not depend on the batch it is in).

    See Also
    --------
    run_specialization_many, moetheory.jacobs.vowel.region_accuracy : what they measure after.

    Examples
    --------
    >>> net, x0, x1, y = train_standin_mixtures(4, "1.3", [np.random.default_rng(0)], 5)
    >>> net.experts.shape, x0.shape, y.shape
    ((1, 3, 4, 4), (1, 600), (1, 600))
    """
    x0, x1, y = standin_batch(rngs)
    net = init_batched_mixture(k, rngs)
    T = one_hot(y[:, :N_TRAIN])
    size = max(1, BATCH_ELEMENTS // (k * T.shape[1] * N_TRAIN))
    for a in range(0, len(rngs), size):
        part = slice(a, a + size)
        batch = BatchedMixture(net.gate[part].copy(), net.experts[part].copy())
        inputs = x0[part, :N_TRAIN], x1[part, :N_TRAIN], T[part]
        for _ in range(epochs):
            batch.step(*inputs, loss_name, lr)
        net.gate[part], net.experts[part] = batch.gate, batch.experts
    return net, x0, x1, y


def run_specialization_many(
    k: int,
    loss_name: str,
    rngs: list[np.random.Generator],
    epochs: int,
    lr: float = 1.0,
    threshold: float = 0.05,
) -> list[TrainResult]:
    """:func:`run_specialization` for many replicates at once, trained as one batch.

    Parameters
    ----------
    k : int
        Number of experts.
    loss_name : {"1.1", "1.3"}
        Loss 1.1 or sign-corrected loss 1.3.
    rngs : list of numpy.random.Generator
        One per replicate: it draws the data, then the initial expert weights.
    epochs : int
        Full-batch gradient-descent steps.
    lr : float
        Learning rate.
    threshold : float
        An expert is in use if its mean (``in_use``) or peak (``in_use_peak``) test-set
        mixing proportion exceeds it.

    Returns
    -------
    list of TrainResult
        One per generator, in order.

    Raises
    ------
    ValueError
        For an unknown loss, ``epochs < 1``, ``lr <= 0``, ``threshold`` outside (0, 1) or no
        generators.

    Notes
    -----
    Training is :class:`moetheory.jacobs.batched.BatchedMixture`: elementwise operations,
    sums along the case axis and a portable exponential, so the results are the same bits on
    every BLAS library and SIMD width.

    See Also
    --------
    run_specialization : one replicate.
    moetheory.jacobs.vowel.region_accuracy : locality of the same kind of runs.

    Examples
    --------
    >>> res = run_specialization_many(4, "1.3", [np.random.default_rng(3)], epochs=20)
    >>> res[0].mixing.shape, round(float(res[0].mixing.sum()), 6)
    ((4,), 1.0)
    """
    _check_training(loss_name, epochs, lr)
    if not 0 < threshold < 1:
        raise ValueError(f"threshold must lie in (0, 1), got {threshold!r}")
    net, x0, x1, y = train_standin_mixtures(k, loss_name, rngs, epochs, lr)
    final = net.mean_loss(x0[:, :N_TRAIN], x1[:, :N_TRAIN], one_hot(y[:, :N_TRAIN]), loss_name)
    p, o = net.forward(x0, x1)
    correct = np.argmax((p[:, :, None, :] * o).sum(axis=1), axis=1) == y
    p_test = p[:, :, N_TRAIN:]
    out = []
    for s in range(len(rngs)):
        mixing, peak = p_test[s].mean(axis=1), p_test[s].max(axis=1)
        out.append(
            TrainResult(
                k=k,
                loss_name=loss_name,
                mixing=mixing,
                peak=peak,
                in_use=int(np.sum(mixing > threshold)),
                in_use_peak=int(np.sum(peak > threshold)),
                train_accuracy=float(correct[s, :N_TRAIN].mean()),
                test_accuracy=float(correct[s, N_TRAIN:].mean()),
                final_loss=float(final[s]),
            )
        )
    return out
