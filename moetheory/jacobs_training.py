"""Small NumPy training of the gated mixture of Jacobs et al. (1991) on a vowel stand-in.

The vowel data of the paper (Peterson & Barney 1952 formants of [i], [ɪ], [a], [ʌ] from 75
speakers) is not available here. :func:`vowel_standin` generates a documented stand-in with
the same layout: 2-D inputs (first and second formant, F1 and F2, in Hz), four classes,
75 speakers of whom the first 50 are for training and the remaining 25 for testing, two
tokens per speaker and vowel.

* Class centres are the Peterson & Barney averages for adult men (F1, F2):
  [i] (270, 2290), [ɪ] (390, 1990), [a] (730, 1090), [ʌ] (640, 1190).
* Speaker ``s`` has a vocal-tract scale ``lambda_s ~ U[1.0, 1.35]`` (men to children) that
  multiplies both formants, so classes are elongated along the diagonal and [i]/[ɪ] and
  [a]/[ʌ] overlap, as in the real data.
* Each token multiplies each formant by ``exp(eps)``, ``eps ~ N(0, 0.06^2)``.
* Inputs are standardised with the training mean and standard deviation.

The network (seed 001): a softmax gate, linear in the input (with bias), and ``k`` experts,
each a single layer of ``q = 4`` sigmoid units (one linear boundary per output) on the same
input. The targets are one-hot class vectors. Training is full-batch gradient descent on
the mean over cases of loss 1.1 or of loss 1.3 (sign-corrected, see
:mod:`moetheory.jacobs1991`), with the analytic, vectorised gradients of that module. The
gate starts at zero (equal proportions, the paper's "unbiased state"); expert weights start
``N(0, 0.5^2)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory.jacobs1991 import loss_and_gradients

__all__ = [
    "VOWEL_FORMANTS",
    "MixtureNet",
    "TrainResult",
    "forward",
    "gradients",
    "init_mixture",
    "run_specialization",
    "run_specialization_many",
    "train",
    "vowel_standin",
]

#: Peterson & Barney (1952) mean F1, F2 (Hz) of adult men for the four vowels of the paper.
VOWEL_FORMANTS: dict[str, tuple[float, float]] = {
    "i": (270.0, 2290.0),
    "ɪ": (390.0, 1990.0),
    "a": (730.0, 1090.0),
    "ʌ": (640.0, 1190.0),
}


def vowel_standin(
    n_speakers: int, rng: np.random.Generator, repetitions: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """Formant inputs ``X`` (n, 2) in Hz and labels ``y`` (n,), speaker-major order.

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
    """Parameters: ``gate`` (3, k) and ``experts`` (k, 3, q); row 3 of each is the bias."""

    gate: np.ndarray
    experts: np.ndarray

    @property
    def k(self) -> int:
        """Number of experts."""
        return self.gate.shape[1]


def init_mixture(k: int, q: int, rng: np.random.Generator) -> MixtureNet:
    """Zero gate (equal mixing proportions) and ``N(0, 0.5^2)`` expert weights.

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

    Loss 1.3 is the sign-corrected one (``variant="corrected"``).

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

    ``mixing`` is the mean of ``p_i(x)`` over the test inputs; ``peak`` its maximum over
    test inputs; ``in_use`` counts experts with ``mixing > threshold`` and ``in_use_peak``
    those with ``peak > threshold``.
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

    Examples
    --------
    >>> r = run_specialization(4, "1.3", np.random.default_rng(0), epochs=5)
    >>> r.mixing.shape, round(float(r.mixing.sum()), 6)
    ((4,), 1.0)
    """
    if not 0 < threshold < 1:
        raise ValueError(f"threshold must lie in (0, 1), got {threshold!r}")
    X, y = vowel_standin(75, rng)
    n_train = 50 * len(VOWEL_FORMANTS) * 2
    mu, sd = X[:n_train].mean(axis=0), X[:n_train].std(axis=0)
    X = (X - mu) / sd
    T = np.eye(len(VOWEL_FORMANTS))[y]
    net = init_mixture(k, T.shape[1], rng)
    history = train(net, X[:n_train], T[:n_train], loss_name, epochs, lr)
    p, o = forward(net, X)
    pred = np.argmax(np.einsum("nk,nkq->nq", p, o), axis=1)
    correct = pred == y
    p_test = p[n_train:]
    mixing, peak = p_test.mean(axis=0), p_test.max(axis=0)
    return TrainResult(
        k=k,
        loss_name=loss_name,
        mixing=mixing,
        peak=peak,
        in_use=int(np.sum(mixing > threshold)),
        in_use_peak=int(np.sum(peak > threshold)),
        train_accuracy=float(correct[:n_train].mean()),
        test_accuracy=float(correct[n_train:].mean()),
        final_loss=history[-1],
    )



def _forward_many(gate: np.ndarray, experts: np.ndarray, Xa: np.ndarray):
    """Batched forward over seeds: gate (S, 3, k), experts (S, k, 3, q), Xa (S, n, 3)."""
    z = np.einsum("snd,sdk->snk", Xa, gate)
    z = z - z.max(axis=2, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=2, keepdims=True)
    o = 1.0 / (1.0 + np.exp(-np.einsum("snd,skdq->snkq", Xa, experts)))
    return p, o


def run_specialization_many(
    k: int,
    loss_name: str,
    rngs: list[np.random.Generator],
    epochs: int,
    lr: float = 1.0,
    threshold: float = 0.05,
) -> list[TrainResult]:
    """:func:`run_specialization` for many seeds at once, trained as one batch.

    Each generator draws its data and initial weights exactly as :func:`run_specialization`
    does; the gradient steps of all seeds run as one NumPy operation (``einsum``, no BLAS), so
    the result equals the one-seed runs up to floating-point summation order.

    Examples
    --------
    >>> one = run_specialization(4, "1.3", np.random.default_rng(3), epochs=20)
    >>> many = run_specialization_many(4, "1.3", [np.random.default_rng(3)], epochs=20)
    >>> bool(np.allclose(one.mixing, many[0].mixing, atol=1e-10))
    True
    """
    _check_training(loss_name, epochs, lr)
    if not 0 < threshold < 1:
        raise ValueError(f"threshold must lie in (0, 1), got {threshold!r}")
    if not rngs:
        raise ValueError("rngs must hold at least one generator")
    n_train = 50 * len(VOWEL_FORMANTS) * 2
    Xs, ys, gates, experts = [], [], [], []
    for rng in rngs:
        X, y = vowel_standin(75, rng)
        mu, sd = X[:n_train].mean(axis=0), X[:n_train].std(axis=0)
        Xs.append((X - mu) / sd)
        ys.append(y)
        net = init_mixture(k, len(VOWEL_FORMANTS), rng)
        gates.append(net.gate)
        experts.append(net.experts)
    X_all = np.stack(Xs)
    Xa_all = np.concatenate([X_all, np.ones((*X_all.shape[:2], 1))], axis=2)
    Xa = Xa_all[:, :n_train]
    T = np.eye(len(VOWEL_FORMANTS))[np.stack(ys)[:, :n_train]]
    gate, expert_w = np.stack(gates), np.stack(experts)
    value = np.zeros(len(rngs))
    for _ in range(epochs):
        p, o = _forward_many(gate, expert_w, Xa)
        values, grad_o, dz = loss_and_gradients(loss_name, T, o, p)
        value = values.mean(axis=1)
        da = grad_o * o * (1.0 - o)
        gate = gate - lr * np.einsum("snd,snk->sdk", Xa, dz) / n_train
        expert_w = expert_w - lr * np.einsum("snd,snkq->skdq", Xa, da) / n_train
    p, o = _forward_many(gate, expert_w, Xa_all)
    out = []
    for s, y in enumerate(ys):
        pred = np.argmax(np.einsum("nk,nkq->nq", p[s], o[s]), axis=1)
        correct = pred == y
        p_test = p[s, n_train:]
        mixing, peak = p_test.mean(axis=0), p_test.max(axis=0)
        out.append(
            TrainResult(
                k=k,
                loss_name=loss_name,
                mixing=mixing,
                peak=peak,
                in_use=int(np.sum(mixing > threshold)),
                in_use_peak=int(np.sum(peak > threshold)),
                train_accuracy=float(correct[:n_train].mean()),
                test_accuracy=float(correct[n_train:].mean()),
                final_loss=float(value[s]),
            )
        )
    return out
