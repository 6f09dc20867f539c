r"""Vectorised simulator of Algorithm 1 (seed 003): MoE in continual learning.

One call runs ``R`` independent replicates at once (a batch dimension). Each round :math:`t`:

1. a task :math:`n_t` with data :math:`X_t` arrives (Definition 1, or the code's data model);
2. gate outputs :math:`h_m = \theta_m^\top \sum_i X_{t,i}`, routing
   :math:`m_t = \operatorname{argmax}_m (h_m + r_m)`,
   :math:`r_m \sim \mathrm{Unif}[0, \lambda]` (eq. (1));
3. the routed expert takes the minimum-norm step of eq. (5),
   :math:`w_t = w_{t-1} + X_t (X_t^\top X_t)^{-1}(y_t - X_t^\top w_{t-1})
   = w_{t-1} + Q Q^\top (w_{n_t} - w_{t-1})`
   with :math:`Q` an orthonormal basis of the columns of :math:`X_t` (this is the
   pseudo-inverse step under the code's rank-deficient data);
4. forgetting :math:`F_t` (eq. (15)) and generalization error :math:`G_t` (eq. (16),
   evaluated at every :math:`t`) are updated incrementally from per-expert/per-ground-truth
   running sums, in :math:`O(N d)` per round;
5. Algorithm 1's flags are evaluated and, unless terminated, the gate takes the gradient step
   of eq. (9) on :math:`L_{\text{task}} = L_{\text{tr}} + L_{\text{loc}} + L_{\text{aux}}`
   (eqs. (6)-(8)):
   :math:`\nabla_{\theta_m} L_{\text{task}} = (\ell_{\text{loc}} + \alpha M f_t^{(m_t)} / t)
   \, \pi_{m_t} (\delta_{m m_t} - \pi_m) \sum_i X_{t,i}`.

Randomness comes from three independent streams spawned from ``seed`` (ground truths,
tasks, routing noise), so runs with different ``M`` but the same seed see the same
ground truths and the same task sequence: comparisons across ``M`` are paired.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from moetheory.continual.config import CLConfig
from moetheory.continual.data import TaskBatch, cluster_of, ground_truths, task_batch
from moetheory.continual.portable import dot_last, portable_exp

__all__ = [
    "SHARED_FIELDS",
    "CLResult",
    "Draws",
    "concat_results",
    "gate_gradient",
    "orthonormal_basis",
    "replay",
    "simulate",
    "simulate_many",
    "softmax",
]

#: Rounds generated per block (bounds the memory of the pre-computed projections).
BLOCK = 50


@dataclass
class CLResult:
    r"""Records of a batch of simulated runs (``R`` replicates, ``T`` rounds, 1-based ``t``).

    Attributes
    ----------
    config : CLConfig
    seed : int or None
    forgetting : ndarray (R, T)
        ``F_t`` of eq. (15) (squared norms); ``F_1 = 0``.
    generalization : ndarray (R, T)
        :math:`G_t = \frac{1}{t} \sum_{\tau \le t} \|w_t^{(m_\tau)} - w_{n_\tau}\|^2` (eq. (16) at
        every ``t``).
    expert, task : ndarray of int (R, T)
        Routed expert ``m_t`` and ground-truth index ``n_t`` (0-based).
    model_error : ndarray (R, T)
        :math:`E_t = \|w_t^{(m_t)} - w_{n_t}\|^2` right after training (eq. (14)).
    update_norm : ndarray (R, T)
        :math:`\|w_t^{(m_t)} - w_{t-1}^{(m_t)}\|`.
    ground_truths, signals : ndarray (R, N, d)
    weights, gate : ndarray (R, M, d)
        Final expert models and gate parameters.
    termination_round : ndarray of int (R,)
        Round from which :math:`\Theta` is no longer updated; ``-1`` if never.
    load : ndarray of int (R, M)
        Tasks routed to each expert.
    gate_outputs : ndarray (R, T, M) or None
        Clean gate outputs :math:`h_m(X_t, \theta_t)` (with ``record_gates=True``).
    expert_sets : ndarray of int (R, T, M) or None
        :math:`\operatorname{argmax}_j \theta_{m,t}^\top v_j` before the round-``t`` update (eq.
        (11); with
        ``record_sets=True``).
    forgetting_code, generalization_code : ndarray (R, T) or None
        The released code's metrics (unsquared norms, absolute differences, its indices).
    gate_params : ndarray (R, T, M, d) or None
        :math:`\theta_t`, the gate parameters used in round ``t`` (before its update; with
        ``record_params=True``).
    models : ndarray (R, T, M, d) or None
        :math:`w_t^{(m)}` right after round ``t`` (with ``record_params=True``).
    choices : dict
        ``config.to_dict()``: every option of the run, with the resolved ``Γ`` and ``T1``.

    See Also
    --------
    simulate : produces it.

    Notes
    -----
    The paper's metrics use squared norms: :math:`F_t = \frac{1}{t-1}\sum_{\tau<t}
    (\|w_t^{(m_\tau)} - w_{n_\tau}\|^2 - \|w_\tau^{(m_\tau)} - w_{n_\tau}\|^2)` (eq. (15))
    and :math:`G_t = \frac{1}{t}\sum_{\tau\le t}\|w_t^{(m_\tau)} - w_{n_\tau}\|^2`
    (eq. (16)).

    Examples
    --------
    >>> res = simulate(CLConfig(M=2, T=5), replicates=3, seed=0)
    >>> res.replicates, res.expert.shape, res.clusters.tolist()
    (3, (3, 5), [0, 1, 2, 0, 1, 2, 0])
    """

    config: CLConfig
    seed: int | None
    forgetting: np.ndarray
    generalization: np.ndarray
    expert: np.ndarray
    task: np.ndarray
    model_error: np.ndarray
    update_norm: np.ndarray
    ground_truths: np.ndarray
    signals: np.ndarray
    weights: np.ndarray
    gate: np.ndarray
    termination_round: np.ndarray
    load: np.ndarray
    gate_outputs: np.ndarray | None = None
    expert_sets: np.ndarray | None = None
    forgetting_code: np.ndarray | None = None
    generalization_code: np.ndarray | None = None
    choices: dict[str, Any] = field(default_factory=dict)
    gate_params: np.ndarray | None = None
    models: np.ndarray | None = None

    @property
    def replicates(self) -> int:
        """Number of replicates ``R``."""
        return int(self.forgetting.shape[0])

    @property
    def clusters(self) -> np.ndarray:
        """Cluster index of every ground truth."""
        return cluster_of(self.config)


#: Fields of :class:`CLResult` that hold one entry per replicate (leading axis).
_PER_REPLICATE = (
    "forgetting", "generalization", "expert", "task", "model_error", "update_norm",
    "ground_truths", "signals", "weights", "gate", "termination_round", "load",
    "gate_outputs", "expert_sets", "forgetting_code", "generalization_code", "gate_params",
    "models",
)


def concat_results(results: list[CLResult]) -> CLResult:
    """Independent batches of one configuration joined into one, replicates in order.

    Parameters
    ----------
    results : list of CLResult
        Runs of the same configuration (on different seeds), with the same records.

    Returns
    -------
    CLResult
        Every per-replicate record concatenated; the configuration, choices and seed
        (``None`` unless all agree) of the batches.

    Raises
    ------
    ValueError
        If ``results`` is empty, the configurations differ, or a record is kept by some
        batches and not by others.

    See Also
    --------
    simulate_many : runs one batch of several configurations.

    Notes
    -----
    Replicates are independent across seeds (each seed's streams are spawned from its own
    ``SeedSequence``), so batches of one configuration on different seeds join into one
    sample: a larger run can reuse a smaller one and add only the replicates it lacks.

    Examples
    --------
    >>> a = simulate(CLConfig(M=2, T=5), 2, seed=0)
    >>> b = simulate(CLConfig(M=2, T=5), 3, seed=1)
    >>> both = concat_results([a, b])
    >>> both.replicates, bool((both.expert[2:] == b.expert).all())
    (5, True)
    """
    if not results:
        raise ValueError("results must hold at least one CLResult")
    first = results[0]
    if any(r.config != first.config for r in results[1:]):
        raise ValueError("results must share one configuration")
    if len(results) == 1:
        return first
    joined: dict[str, Any] = {}
    for name in _PER_REPLICATE:
        parts = [getattr(r, name) for r in results]
        kept = [p is not None for p in parts]
        if any(kept) and not all(kept):
            raise ValueError(f"results must all keep the record {name!r} or none of them")
        joined[name] = np.concatenate(parts) if all(kept) else None
    seeds = {r.seed for r in results}
    return dataclasses.replace(first, seed=first.seed if len(seeds) == 1 else None, **joined)


@dataclass(frozen=True)
class Draws:
    r"""Random draws of one run given from outside (e.g. recorded from the authors' script).

    Attributes
    ----------
    W, V : ndarray (N, d)
        Ground truths and their signals.
    tasks : ndarray of int (T,)
        Ground-truth index ``n_t`` of every round (0-based).
    X : ndarray (T, d, s)
        Feature matrices.
    noise : ndarray (T, M)
        Routing noise :math:`r_t^{(m)}` (already scaled: values in :math:`[0, \lambda]`).

    See Also
    --------
    replay : runs Algorithm 1 on these draws.

    Notes
    -----
    The code reading's reference: the authors' script records these draws, and
    :func:`replay` must reproduce its routing exactly (issue 9, item 11).

    Examples
    --------
    >>> X = np.ones((2, 3, 1))
    >>> d = Draws(np.eye(3)[:2], np.eye(3)[:2], np.array([0, 1]), X, np.zeros((2, 2)))
    >>> d.X.shape
    (2, 3, 1)
    """

    W: np.ndarray
    V: np.ndarray
    tasks: np.ndarray
    X: np.ndarray
    noise: np.ndarray


def replay(cfg: CLConfig, draws: Draws, *, record_gates: bool = False) -> CLResult:
    """Run Algorithm 1 once on given draws instead of the simulator's own random streams.

    Parameters
    ----------
    cfg : CLConfig
        Must agree with the shapes of ``draws`` (``N``, ``d``, ``s``, ``T``, ``M``).
    draws : Draws
        Ground truths, tasks, features and routing noise of every round.
    record_gates : bool
        Keep the clean gate outputs of every round.

    Returns
    -------
    CLResult
        One replicate.

    Raises
    ------
    ValueError
        If an array of ``draws`` does not have the shape ``cfg`` implies.

    See Also
    --------
    simulate : the same loop on the simulator's own random streams.

    Notes
    -----
    The signal position of every round is recorded as 0; the update of eq. (5) uses only the
    column space of :math:`X_t`, so the position does not matter.

    Examples
    --------
    >>> cfg = CLConfig(M=2, T=3, N=2, K=1, d=3, s=1)
    >>> W = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    >>> X = np.array([[[1.0], [0.0], [0.0]]] * 3)
    >>> d = Draws(W, W, np.array([0, 0, 0]), X, np.array([[0.1, 0.0]] * 3))
    >>> replay(cfg, d).expert.tolist()  # round 1 lowers expert 0's gate output (Lemma 7)
    [[0, 1, 1]]
    """
    T, M, N, d, s = cfg.T, cfg.M, cfg.N, cfg.d, cfg.s
    shapes = {"W": (N, d), "V": (N, d), "tasks": (T,), "X": (T, d, s), "noise": (T, M)}
    for name, shape in shapes.items():
        got = np.shape(getattr(draws, name))
        if tuple(got[: len(shape)]) != shape or (name == "noise" and got[1] < M):
            raise ValueError(f"draws.{name} must have shape {shape} for this cfg, got {got}")
    return simulate_many([cfg], 1, None, record_gates=record_gates, draws=draws)[0]


def softmax(z: np.ndarray) -> np.ndarray:
    r"""Softmax over the last axis (eq. (2)), shifted for stability.

    Parameters
    ----------
    z : ndarray
        Gate outputs; ``-inf`` entries get probability 0.

    Returns
    -------
    ndarray
        Same shape, non-negative, summing to 1 along the last axis.

    See Also
    --------
    moetheory.continual.portable.portable_exp : the exponential used (same bits everywhere).

    Notes
    -----
    :math:`\pi_m = e^{z_m - \max z} / \sum_{m'} e^{z_{m'} - \max z}`.

    Examples
    --------
    >>> softmax(np.array([0.0, np.log(3.0)])).round(3).tolist()
    [0.25, 0.75]
    """
    e = portable_exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def gate_gradient(
    pi: np.ndarray, chosen: np.ndarray, xbar: np.ndarray, coef: np.ndarray
) -> np.ndarray:
    r"""Gradient of ``L_task`` in every :math:`\theta_m` (Lemma 4's form, eqs. (6)-(9)).

    :math:`\nabla_{\theta_m} L_{\text{task}} = c \, \pi_{m_t} (\delta_{m m_t} - \pi_m) \bar x`
    with :math:`c` = ``coef`` :math:`= \ell_{\text{loc}} + \alpha M f / t` and
    :math:`\bar x = \sum_i X_{t,i}`.

    Parameters
    ----------
    pi : ndarray (R, M)
        Softmax outputs.
    chosen : ndarray of int (R,)
        Routed expert ``m_t``.
    xbar : ndarray (R, d)
        Column sum of ``X_t``.
    coef : ndarray (R,)
        Scalar factor of each replicate.

    Returns
    -------
    ndarray (R, M, d)

    See Also
    --------
    softmax : gives ``pi``.

    Notes
    -----
    With :math:`\pi = \mathrm{softmax}(h)`, :math:`\partial \pi_{m_t}/\partial \theta_m =
    \pi_{m_t}(\delta_{m m_t} - \pi_m)\bar x` (Lemma 4), so the gradients sum to 0 over
    :math:`m`.

    Examples
    --------
    >>> g = gate_gradient(np.array([[0.2, 0.8]]), np.array([1]), np.ones((1, 3)),
    ...                   np.array([2.0]))
    >>> bool(abs(g.sum(axis=1)).max() < 1e-15)
    True
    """
    R, _M = pi.shape
    rows = np.arange(R)
    indicator = np.zeros_like(pi)
    indicator[rows, chosen] = 1.0
    weight = (coef * pi[rows, chosen])[:, None] * (indicator - pi)
    return weight[:, :, None] * xbar[:, None, :]


def orthonormal_basis(X: np.ndarray, rtol: float = 1e-10) -> np.ndarray:
    r"""Orthonormal basis of the column space of each ``X`` (shape ``(..., d, s)``), as rows.

    Returns ``Qt`` of shape ``(..., s, d)`` whose rows are orthonormal (or zero) and span the
    columns of ``X``: modified Gram-Schmidt with re-orthogonalisation, vectorised over the
    leading axes. A column whose residual is below ``rtol`` times the largest column norm is
    dependent and gives a zero row, so :math:`Q^\top Q = X X^{+}` (:math:`Q` = ``Qt``) also
    for rank-deficient :math:`X` (the code's data). The update of eq. (5) is then
    :math:`w + Q^\top Q (w_n - w)`.

    Parameters
    ----------
    X : array_like, shape (..., d, s)
        Feature matrices.
    rtol : float
        Relative size below which a column counts as dependent.

    Returns
    -------
    ndarray, shape (..., s, d)
        Orthonormal (or zero) rows spanning the columns of each ``X``.

    See Also
    --------
    simulate : applies eq. (5) with it.

    Notes
    -----
    Only elementwise operations and :func:`~moetheory.continual.portable.dot_last`: the same
    bits on every BLAS and SIMD path, unlike ``numpy.linalg.qr``.

    Examples
    --------
    >>> X = np.array([[1.0, 1.0], [0.0, 1.0], [0.0, 0.0]])
    >>> Qt = orthonormal_basis(X)
    >>> bool(np.allclose(Qt.T @ Qt, X @ np.linalg.pinv(X)))
    True
    """
    A = np.moveaxis(np.asarray(X, dtype=float), -1, 0).copy()  # (s, ..., d), contiguous rows
    scale = np.sqrt(dot_last(A, A)).max(axis=0)
    for j in range(A.shape[0]):
        q = A[j]
        for _ in range(2):
            for i in range(j):
                q -= dot_last(A[i], q)[..., None] * A[i]
        norm = np.sqrt(dot_last(q, q))
        keep = norm > rtol * scale
        q *= np.where(keep, 1.0 / np.where(keep, norm, 1.0), 0.0)[..., None]
    return np.moveaxis(A, 0, -2)


def _validate_run(replicates: int, seed: int | None) -> None:
    if isinstance(replicates, bool) or not isinstance(replicates, int | np.integer):
        raise ValueError(f"replicates must be an integer >= 1, got {replicates!r}")
    if replicates < 1:
        raise ValueError(f"replicates must be an integer >= 1, got {replicates}")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0
    ):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")


#: Fields that fix the data and the structure of the loop: equal across a stacked run.
SHARED_FIELDS: tuple[str, ...] = (
    "N", "K", "d", "s", "T", "sigma0", "sigma_t", "data_model", "beta", "beta_max",
    "signal_scale", "cluster_spread", "code_rank", "signal_norm", "column_norm",
    "softmax", "loc_norm", "aux_f", "flag_gate", "code_metrics",
)


def simulate(
    cfg: CLConfig,
    replicates: int = 1,
    seed: int | None = None,
    *,
    record_gates: bool = False,
    record_sets: bool = False,
    progress: bool = False,
    record_params: bool = False,
) -> CLResult:
    r"""Run Algorithm 1 (or its variant without termination, or ``M = 1``) for ``R`` replicates.

    Parameters
    ----------
    cfg : CLConfig
        Parameters and reading.
    replicates : int
        Number ``R >= 1`` of independent replicates, simulated together.
    seed : int or None
        Seed of ``np.random.SeedSequence``; the same seed gives the same result bit for bit.
    record_gates : bool
        Keep the clean gate outputs of every round, ``(R, T, M)``.
    record_sets : bool
        Keep the expert sets of eq. (11) of every round, ``(R, T, M)``.
    progress : bool
        Show a progress bar over the rounds.
    record_params : bool
        Keep the gate parameters and expert models of every round, ``(R, T, M, d)`` each.

    Returns
    -------
    CLResult

    Raises
    ------
    ValueError
        If ``cfg`` is not a :class:`CLConfig`, ``replicates`` is not a positive integer or
        ``seed`` is not a non-negative integer or None.

    See Also
    --------
    simulate_many : several configurations on the same data in one loop.
    replay : one run on given draws.

    Notes
    -----
    Algorithm 1 round by round: route :math:`m_t = \arg\max_m (h_m + r_m)` (eq. (1)), update
    the routed expert by eq. (5), update the metrics (14)-(16) incrementally and, unless
    terminated, the gate by eq. (9).

    Examples
    --------
    >>> res = simulate(CLConfig(M=3, T=50), replicates=2, seed=0)
    >>> res.forgetting.shape, int(res.load.sum())
    ((2, 50), 100)
    >>> float(res.forgetting[0, 0])
    0.0
    """
    if not isinstance(cfg, CLConfig):
        raise ValueError(f"cfg must be a CLConfig, got {type(cfg).__name__}")
    return simulate_many(
        [cfg], replicates, seed, record_gates=record_gates, record_sets=record_sets,
        progress=progress, record_params=record_params,
    )[0]


def _flag_from(cfg: CLConfig) -> int:
    """First round (1-based) whose termination flags are evaluated (``flag_start``)."""
    start = math.ceil(cfg.M / cfg.eta - 1e-12) if cfg.code_schedule else cfg.T1
    return start + 1 if cfg.flag_start == "after-T1" else start


def simulate_many(
    configs: list[CLConfig],
    replicates: int = 1,
    seed: int | None = None,
    *,
    record_gates: bool = False,
    record_sets: bool = False,
    progress: bool = False,
    draws: Draws | None = None,
    record_params: bool = False,
) -> list[CLResult]:
    r"""Simulate several configurations that share their data, in one vectorised loop.

    The configurations may differ in ``M``, ``terminate``, ``gamma``, ``eta``, ``alpha``,
    ``lam``, ``code_schedule`` and the termination flags' readings (``flag_selected``,
    ``flag_start``, ``flag_memory``) but must agree on :data:`SHARED_FIELDS`. Each result equals
    ``simulate(cfg, replicates, seed)`` bit for bit: every configuration sees the same ground
    truths and tasks, and configurations with the same ``M`` the same routing noise.

    Parameters
    ----------
    configs : list of CLConfig
        Configurations agreeing on :data:`SHARED_FIELDS`.
    replicates : int
        Number ``R >= 1`` of replicates of each.
    seed : int or None
        Seed of ``np.random.SeedSequence``.
    record_gates, record_sets, record_params : bool
        As in :func:`simulate`.
    progress : bool
        Show a progress bar over the rounds.
    draws : Draws, optional
        Given draws instead of the random streams (one replicate; see :func:`replay`).

    Returns
    -------
    list of CLResult
        One per configuration, in order.

    Raises
    ------
    ValueError
        If ``configs`` is empty or holds something other than :class:`CLConfig`, if they
        differ in a shared field, or if ``replicates`` or ``seed`` is out of range.

    See Also
    --------
    simulate : one configuration.
    moetheory.continual.sweep.run_sweep : configurations on an executor.

    Notes
    -----
    The rows of all configurations are one batch; per round the cost is :math:`O(N d)` per
    row plus, for the code's forgetting metric, the terms of the groups whose distance moved;
    the gate's gradient is skipped on the rows whose gate has stopped (from
    :data:`GATHER_FROM` stopped entries of a block on). Identical runs are simulated once:
    equal configurations, and every ``M = 1`` configuration (no gate, so termination,
    :math:`\Gamma`, :math:`\eta`, :math:`\alpha` and :math:`\lambda` do not matter); each
    gets its own copy of the arrays.

    Examples
    --------
    >>> a, b = simulate_many([CLConfig(M=2, T=30), CLConfig(M=4, T=30)], 2, seed=3)
    >>> bool((a.task == b.task).all()), a.weights.shape, b.weights.shape
    (True, (2, 2, 10), (2, 4, 10))
    """
    configs = list(configs)
    if not configs or not all(isinstance(c, CLConfig) for c in configs):
        raise ValueError("configs must be a non-empty list of CLConfig")
    _validate_run(replicates, seed)
    for name in SHARED_FIELDS:
        values = {repr(getattr(c, name)) for c in configs}
        if len(values) > 1:
            raise ValueError(
                f"configs must share {name} to be simulated together, got {sorted(values)}"
            )
    # Identical runs are simulated once: equal configurations, and every M = 1 configuration
    # (no gate: its run depends on the shared fields only).
    keys = [("single",) if c.M == 1 else c for c in configs]
    unique = list(dict.fromkeys(keys))
    if len(unique) < len(configs):
        first = {key: configs[keys.index(key)] for key in unique}
        done = dict(zip(unique, _simulate_stacked(
            [first[key] for key in unique], replicates, seed, record_gates=record_gates,
            record_sets=record_sets, progress=progress, draws=draws,
            record_params=record_params,
        ), strict=True))
        return [_relabel(done[key], c) for key, c in zip(keys, configs, strict=True)]
    return _simulate_stacked(
        configs, replicates, seed, record_gates=record_gates, record_sets=record_sets,
        progress=progress, draws=draws, record_params=record_params,
    )


def _relabel(res: CLResult, cfg: CLConfig) -> CLResult:
    """A copy of ``res`` (arrays copied) recorded under the configuration ``cfg``."""
    if res.config is cfg:
        return res
    arrays: dict[str, Any] = {
        name: np.copy(value) for name, value in vars(res).items()
        if isinstance(value, np.ndarray)
    }
    return dataclasses.replace(res, config=cfg, choices=cfg.to_dict(), **arrays)


def _simulate_stacked(
    configs: list[CLConfig],
    replicates: int,
    seed: int | None,
    *,
    record_gates: bool,
    record_sets: bool,
    progress: bool,
    draws: Draws | None,
    record_params: bool,
) -> list[CLResult]:
    """The loop of :func:`simulate_many` on validated, pairwise different configurations."""
    from tqdm import tqdm

    cfg = configs[0]
    nC, R, N, d, T = len(configs), int(replicates), cfg.N, cfg.d, cfg.T
    Ms = np.array([c.M for c in configs])
    Mx = int(Ms.max())
    B_ = nC * R
    rows = np.arange(B_)
    rep = np.tile(np.arange(R), nC)  # replicate of each row
    conf = np.repeat(np.arange(nC), R)  # configuration of each row
    M_row = Ms[conf].astype(float)

    truth_ss, task_ss, route_ss = np.random.SeedSequence(seed).spawn(3)
    if draws is None:
        W0, V0 = ground_truths(cfg, np.random.default_rng(truth_ss), R)
    else:
        W0, V0 = draws.W[None].astype(float), draws.V[None].astype(float)
    W = W0[rep]
    task_rng = np.random.default_rng(task_ss)
    route_rngs = [np.random.default_rng(route_ss) for _ in configs]

    def per_row(values: list[float]) -> np.ndarray:
        return np.asarray(values, dtype=float)[conf]

    per_row([c.lam for c in configs])
    eta = per_row([c.eta for c in configs])
    alpha_M = per_row([c.alpha * c.M for c in configs])
    gamma = per_row([c.resolved_gamma for c in configs])
    terminate = per_row([c.terminate and c.M > 1 for c in configs]) > 0
    flag_from = per_row([_flag_from(c) for c in configs])
    min_rounds = per_row([80 + 3 * c.M + 1 if c.code_schedule else 0 for c in configs])
    flag_selected = per_row([float(bool(c.flag_selected)) for c in configs]) > 0
    sticky = per_row([float(c.flag_memory == "sticky") for c in configs]) > 0
    mask = np.where(np.arange(Mx)[None, :] < M_row[:, None], 0.0, -np.inf)  # padded experts

    w = np.zeros((B_, Mx, d))
    theta = np.zeros((B_, Mx, d))
    D = np.broadcast_to((W**2).sum(-1)[:, None, :], (B_, Mx, N)).copy()  # ‖w_m - w_n‖²
    D_flat = D.reshape(-1)
    C = np.zeros((B_, Mx, N))  # past rounds routed to m with ground truth n
    S = np.zeros(B_)  # Σ_{τ<=t} ‖w_t^{(m_τ)} - w_{n_τ}‖²
    S_root = np.zeros(B_)  # the same with unsquared norms (code metrics)
    E_past = np.zeros(B_)
    counts = np.zeros((B_, Mx))
    active = np.ones(B_, dtype=bool)
    padded = ~np.isfinite(mask)
    flags = padded.copy()  # padded experts count as flagged
    term_round = np.full(B_, -1, dtype=np.int64)

    out_F = np.zeros((B_, T))
    out_G = np.zeros((B_, T))
    out_m = np.zeros((B_, T), dtype=np.int64)
    out_n = np.zeros((B_, T), dtype=np.int64)
    out_e = np.zeros((B_, T))
    out_u = np.zeros((B_, T))
    gates = np.zeros((B_, T, Mx)) if record_gates else None
    sets = np.zeros((B_, T, Mx), dtype=np.int64) if record_sets else None
    params = np.zeros((B_, T, Mx, d)) if record_params else None
    models = np.zeros((B_, T, Mx, d)) if record_params else None
    code = cfg.code_metrics
    if code:
        F_code = np.zeros((B_, T))
        G_code = np.zeros((B_, T))
        root_then = np.zeros((B_, T))  # ‖w_τ^{(m_τ)} - w_{n_τ}‖ right after round τ
        # One segment per run of adjacent configurations with the same M.
        segments: list[tuple[int, int, int]] = []
        for c in range(nC):
            if segments and int(Ms[c]) == segments[-1][2] and segments[-1][1] == c * R:
                segments[-1] = (segments[-1][0], (c + 1) * R, int(Ms[c]))
            else:
                segments.append((c * R, (c + 1) * R, int(Ms[c])))
        code_F = _CodeForgetting(segments, N, T, Mx)
    # The per-round records go to block buffers, one contiguous row per round, copied into
    # the (rows, T) records once per block: a column written every round touches one cache
    # line per row, evicted by the round's other arrays before the next column is written.
    records = [(out, np.zeros((BLOCK, B_), dtype=out.dtype))
               for out in (out_F, out_G, out_m, out_n, out_e, out_u)]
    (_, rec_F), (_, rec_G), (_, rec_m), (_, rec_n), (_, rec_e), (_, rec_u) = records
    if code:
        records += [(out, np.zeros((BLOCK, B_))) for out in (F_code, G_code, root_then)]
        rec_Fc, rec_Gc, rec_root = (rec for _, rec in records[6:])

    noisy_pi = cfg.softmax == "noisy"
    noisy_flag = cfg.flag_gate == "noisy"
    squared = cfg.loc_norm == "squared"
    any_gate = bool((Ms > 1).any())
    h = np.zeros((B_, Mx))  # clean gate outputs (0 for padded experts and M = 1)
    # Row blocks of the configurations that have a gate: (rows, M, local row index).
    # Adjacent configurations with the same M share one block (row-wise arithmetic is the same).
    gate_blocks: list[tuple[slice, int, np.ndarray]] = []
    for c in range(nC):
        if Ms[c] < 2:
            continue
        if gate_blocks and gate_blocks[-1][1] == Ms[c] and gate_blocks[-1][0].stop == c * R:
            start_row = gate_blocks[-1][0].start
            gate_blocks[-1] = (slice(start_row, (c + 1) * R), int(Ms[c]),
                               np.arange((c + 1) * R - start_row))
        else:
            gate_blocks.append((slice(c * R, (c + 1) * R), int(Ms[c]), np.arange(R)))
    # The gate's gradient, block by block, skips the rows whose gate has stopped once they
    # are many (a terminated gate is frozen): per block, None while it is computed on all
    # rows by slices (a stopped row's step is then a product by 0), else the active rows,
    # gathered; and the flat indices of those rows' real (row, expert) softmax entries,
    # block after block, with each block's offset in them (one call takes all exponentials).
    block_rows, active_entries, active_offsets = _active_gate(gate_blocks, active, Mx)
    # Flat views: row ``r``'s expert ``m`` is row ``r·Mx + m`` of w2, theta2, C2 and D2, its
    # ground truth ``n`` row ``r·N + n`` of W2; gathers by ``take`` and scatters by whole rows
    # are several times faster than indexing with (rows, m_t) (data movement: the same bits).
    w2, theta2 = w.reshape(B_ * Mx, d), theta.reshape(B_ * Mx, d)
    C2, D2, W2 = C.reshape(B_ * Mx, N), D.reshape(B_ * Mx, N), W.reshape(B_ * N, d)
    w_rows, D_rows, theta_rows = _row_items(w2), _row_items(D2), _row_items(theta2)
    C_flat, counts_flat = C.reshape(-1), counts.reshape(-1)
    rows_Mx, rows_N = rows * Mx, rows * N

    # Routing noise of a block of rounds plus the mask: padded experts stay at -inf.
    noise_buffer = np.broadcast_to(mask, (min(BLOCK, T), B_, Mx)).copy()
    bar = tqdm(total=T, disable=not progress, unit="round", leave=False)
    for start in range(0, T, BLOCK):
        nb = min(BLOCK, T - start)
        if draws is None:
            batch = task_batch(cfg, task_rng, V0, nb)
        else:
            batch = TaskBatch(draws.tasks[None, start:start + nb],
                              draws.X[None, start:start + nb].astype(float),
                              np.zeros((1, nb), dtype=np.int64))
        # Per-round data of every row (configurations share the replicates' data).
        # Per replicate (configurations broadcast over them): (nb, R, s, d) and (nb, R, d, s).
        Qt = np.swapaxes(orthonormal_basis(batch.X), 0, 1)
        Q = np.swapaxes(Qt, 2, 3)
        xbars = np.swapaxes(batch.X.sum(axis=-1), 0, 1)[:, rep]  # (nb, rows, d)
        tasks = batch.task.T[:, rep]  # (nb, rows)
        noise = noise_buffer[:nb]
        for c, (gen, cf) in enumerate(zip(route_rngs, configs, strict=True)):
            if draws is None:
                block = cf.lam * gen.random((R, nb, cf.M))
            else:
                block = draws.noise[None, start:start + nb, : cf.M].astype(float)
            # + 0.0: the mask of a real expert, added as before (a -0.0 becomes 0.0)
            np.add(np.swapaxes(block, 0, 1), 0.0, out=noise[:, c * R:(c + 1) * R, : cf.M])
        for b in range(nb):
            t = start + b + 1
            n_t = tasks[b]
            xbar = xbars[b]
            for sl, M, _ in gate_blocks:
                h[sl, :M] = dot_last(theta[sl, :M], xbar[sl, None, :])
            hn = h + noise[b]
            m_t = hn.argmax(axis=1)
            if sets is not None:
                sets[:, t - 1] = dot_last(theta[:, :, None, :], V0[rep][:, None]).argmax(axis=2)
            if gates is not None:
                gates[:, t - 1] = h
            if params is not None:
                params[:, t - 1] = theta

            # Expert update, eq. (5): w + Qᵀ Q (w_n - w).
            idx = rows_Mx + m_t  # flat (row, routed expert)
            rn = rows_N + n_t  # flat (row, ground truth)
            w_old = w2.take(idx, axis=0)
            coeff = dot_last(Qt[b], (W2.take(rn, axis=0) - w_old).reshape(nC, R, 1, d))
            delta = dot_last(Q[b], coeff[:, :, None, :]).reshape(B_, d)
            w_new = w_old + delta
            w_rows[idx] = _row_items(w_new)
            if models is not None:
                models[:, t - 1] = w

            # Metrics, eqs. (14)-(16), from running sums.
            diff = W - w_new[:, None, :]
            D_new = dot_last(diff, diff)
            C_row = C2.take(idx, axis=0)
            D_old = D2.take(idx, axis=0)
            if code:
                root_new = np.sqrt(D_new)
                S_root += dot_last(C_row, root_new - np.sqrt(D_old))
            S += dot_last(C_row, D_new - D_old)
            D_rows[idx] = _row_items(D_new)
            e = D_new.reshape(-1).take(rn)
            C_flat[idx * N + n_t] += 1.0
            S += e
            rec_F[b] = (S - e - E_past) / (t - 1) if t > 1 else 0.0
            rec_G[b] = S / t
            E_past += e
            counts_flat[idx] += 1.0
            rec_m[b] = m_t
            rec_n[b] = n_t
            rec_e[b] = e
            dnorm = np.sqrt(dot_last(delta, delta))
            rec_u[b] = dnorm
            if code:
                root_e = np.sqrt(e)
                j = t - 3  # round t - 2 (0-based) joins its group: from the buffer or records
                joining = None if j < 0 else (
                    (rec_m[j - start], rec_n[j - start], rec_root[j - start]) if j >= start
                    else (out_m[:, j], out_n[:, j], root_then[:, j]))
                code_F.step(t, m_t, root_new, joining, D_flat)
                rec_Gc[b] = S_root / t
                S_root += root_e
                if t > 1:
                    for sl, total in code_F.totals():
                        rec_Fc[b, sl] = total / (t - 1)
                else:
                    rec_Fc[b] = 0.0
                rec_root[b] = root_e

            if not any_gate:
                continue
            # Algorithm 1: convergence flags and early termination.
            check = active & terminate & (t >= flag_from)
            if check.any():
                # the checked rows only (once most gates have stopped, a few of them)
                ck = np.flatnonzero(check)
                g = (hn if noisy_flag else h).take(ck, axis=0)
                m_ck, at = m_t.take(ck), np.arange(ck.size)
                close = np.abs(g - g[at, m_ck][:, None]) < gamma.take(ck)[:, None]
                close[at, m_ck] = flag_selected.take(ck)  # gap 0 < Γ: flagged iff literal
                # sticky flags stay set; round-by-round ones are the round's own (padded
                # experts stay flagged either way)
                kept = np.where(sticky.take(ck)[:, None], flags.take(ck, axis=0),
                                padded.take(ck, axis=0))
                flags_ck = kept | close
                flags[ck] = flags_ck
                stop = ck[flags_ck.all(axis=1) & (t >= min_rounds.take(ck))]
                if stop.size:
                    term_round[stop] = t
                    active[stop] = False
                    block_rows, active_entries, active_offsets = _active_gate(
                        gate_blocks, active, Mx)
            if not active.any():
                continue
            # Gate update, eq. (9), on each configuration's own experts (no padding), for
            # the rows whose gate is still active.
            loc = dnorm**2 if squared else dnorm
            f = counts_flat.take(idx) / t if cfg.aux_f else 1.0
            coef = (loc + alpha_M / t * f) * active * eta
            z_all = hn if noisy_pi else h + mask
            # softmax (eq. (2)) of every block: shift by the row maximum, one exponential
            shifted = z_all - z_all.max(axis=1, keepdims=True)
            e_all = portable_exp(shifted.reshape(-1).take(active_entries))
            for i, (sl, M, local) in enumerate(gate_blocks):
                gathered = block_rows[i]
                if not (active[sl].any() if gathered is None else gathered[0].size):
                    continue
                e = e_all[active_offsets[i]:active_offsets[i + 1]].reshape(-1, M)
                pi = e / e.sum(axis=-1, keepdims=True)
                if gathered is None:  # every row of the block: slices
                    chosen = m_t[sl]
                    top = coef[sl] * pi[local, chosen]
                    weight = -top[:, None] * pi
                    weight[local, chosen] += top
                    theta[sl, :M] -= weight[:, :, None] * xbar[sl, None, :]
                    continue
                some, at, entries = gathered
                chosen = m_t.take(some)
                top = coef.take(some) * pi[at, chosen]
                weight = -top[:, None] * pi
                weight[at, chosen] += top
                theta_a = theta2.take(entries, axis=0).reshape(some.size, M, d)
                theta_a -= weight[:, :, None] * xbar.take(some, axis=0)[:, None, :]
                theta_rows[entries] = _row_items(theta_a.reshape(-1, d))
        for out, rec in records:
            out[:, start:start + nb] = rec[:nb].T
        bar.update(nb)
    bar.close()

    results = []
    for c, cf in enumerate(configs):
        sl = slice(c * R, (c + 1) * R)
        M = cf.M
        results.append(CLResult(
            config=cf,
            seed=seed,
            forgetting=out_F[sl],
            generalization=out_G[sl],
            expert=out_m[sl],
            task=out_n[sl],
            model_error=out_e[sl],
            update_norm=out_u[sl],
            ground_truths=W0,
            signals=V0,
            weights=w[sl, :M],
            gate=theta[sl, :M],
            termination_round=term_round[sl],
            load=counts[sl, :M].astype(np.int64),
            gate_outputs=gates[sl, :, :M] if gates is not None else None,
            expert_sets=sets[sl, :, :M] if sets is not None else None,
            forgetting_code=F_code[sl] if code else None,
            generalization_code=G_code[sl] if code else None,
            choices=cf.to_dict(),
            gate_params=params[sl, :, :M] if params is not None else None,
            models=models[sl, :, :M] if models is not None else None,
        ))
    return results


#: Stopped (row, expert) entries of a gate block from which the gradient gathers the
#: active rows instead of computing a zero step on every row by slices.
GATHER_FROM = 256


def _active_gate(
    blocks: list[tuple[slice, int, np.ndarray]], active: np.ndarray, Mx: int
) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray] | None], np.ndarray, np.ndarray]:
    """The rows of each gate block whose gradient is computed, and their softmax entries.

    Returns, per block ``(rows, M, local)``, ``None`` (all rows, by slices) while its
    stopped rows hold fewer than :data:`GATHER_FROM` entries, else the active rows'
    indices, their positions ``0, 1, ...`` and their flat ``(row, expert)`` indices
    ``row·Mx + m``, ``m < M``; the flat indices of the softmax entries of the rows
    computed, block after block; and the offset of each block in them.
    """
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray] | None] = []
    entries = [np.zeros(0, dtype=np.int64)]
    sizes = [0]
    for sl, M, _ in blocks:
        live = np.flatnonzero(active[sl]) + sl.start
        if (sl.stop - sl.start - live.size) * M < GATHER_FROM:
            live = np.arange(sl.start, sl.stop)
            rows.append(None)
        flat = (live[:, None] * Mx + np.arange(M)).reshape(-1)
        if live.size < sl.stop - sl.start:
            rows.append((live, np.arange(live.size), flat))
        entries.append(flat)
        sizes.append(live.size * M)
    return rows, np.concatenate(entries), np.cumsum(sizes)


def _row_items(a: np.ndarray) -> np.ndarray:
    """The rows of a C-contiguous 2-D float array as single items (a 1-D view).

    Scattering whole rows by one index per row (``_row_items(a)[idx] = _row_items(b)``)
    copies the same bytes as ``a[idx] = b`` a few times faster.
    """
    return a.view(_void(a.itemsize * a.shape[1])).reshape(-1)


@functools.cache
def _void(size: int) -> np.dtype:
    """The ``size``-byte void dtype (made once: the loop above asks for it every round)."""
    return np.dtype((np.void, size))


def _term_capacity(T: int, N: int) -> int:
    """Initial room per group of the code metrics' term tables.

    A group ``(row, m, n)`` holds at most the rounds of task ``n``, a Binomial(T, 1/N) count,
    which exceeds ``T/N + 6·sqrt(T/N)`` with probability below 1e-9; a table grows (doubles)
    when a group outgrows it anyway.
    """
    return min(T, max(8, math.ceil(T / N + 6 * math.sqrt(T / N) + 8)))


class _CodeForgetting:
    """The released code's forgetting sum, updated incrementally for every row.

    The code's ``F_t`` sums ``|‖w_t^{(m_j)} - w_{n_j}‖ - b_j|`` with
    ``b_j = ‖w_j^{(m_j)} - w_{n_j}‖`` over rounds ``j <= t - 2``; the absolute value prevents
    one running sum. The terms are grouped by ``g = (row, m_j, n_j)``: all terms of a group
    share the current distance ``r_g = ‖w^{(m)} - w_n‖``, which changes only when expert ``m``
    is updated. Per group we keep the count ``c``, ``Σ b``, ``min b`` and ``max b``; when
    ``r_g`` changes, its part ``Σ_{j ∈ g} |r_g - b_j|`` is ``c r_g - Σ b`` if
    ``r_g >= max b``, ``Σ b - c r_g`` if ``r_g <= min b``, and only otherwise summed term by
    term (the terms in the order they joined, summed left to right: padded with zeros to the
    longest group summed in the same segment and round, which changes no bit). Round ``j``
    joins its group at round ``j + 2`` (the code's window).

    Rows come in segments (adjacent configurations with the same ``M``); the per-group state
    of all rows is stored flat, group ``(row, m, n)`` of a segment starting at row ``s`` and
    offset ``o`` at ``o + ((row - s)·M + m)·N + n``, so each update is one 1-D gather or
    scatter. Each segment keeps its own table of terms, one row per group.
    """

    def __init__(self, segments: list[tuple[int, int, int]], N: int, T: int, Mx: int) -> None:
        self.N = N
        B = segments[-1][1]
        self.base = np.zeros(B, dtype=np.int64)  # flat index of group (row, 0, 0)
        self.segments: list[tuple[slice, int, int, int]] = []  # rows, M, offset, groups
        offset = 0
        for start, stop, M in segments:
            self.base[start:stop] = offset + np.arange(stop - start) * (M * N)
            self.segments.append((slice(start, stop), M, offset, (stop - start) * M * N))
            offset += (stop - start) * M * N
        self.d_base = np.arange(B) * (Mx * N)  # flat index of D[row, 0, 0]
        self.tasks = np.arange(N)
        cap = _term_capacity(T, N)
        self.caps = [cap for _ in self.segments]
        self.tables = [np.zeros((G, cap)) for (_, _, _, G), cap in
                       zip(self.segments, self.caps, strict=True)]
        self.count = np.zeros(offset, dtype=np.int64)
        self.sum = np.zeros(offset)
        self.low = np.full(offset, np.inf)
        self.high = np.full(offset, -np.inf)
        self.part = np.zeros(offset)  # Σ_{j ∈ g} |r_g - b_j|

    def step(
        self, t: int, m_t: np.ndarray, root_new: np.ndarray,
        joining: tuple[np.ndarray, np.ndarray, np.ndarray] | None, D_flat: np.ndarray,
    ) -> None:
        """Round ``t`` (1-based), after the routed expert's model and ``D`` are updated.

        ``joining`` is the expert, task and ``b_j`` of every row in round ``j = t - 2``,
        which joins its group now (``None`` for ``t < 3``).
        """
        N = self.N
        if joining is not None:  # round j = t - 2 joins its group
            m_j, n_j, b_j = joining
            g = self.base + m_j * N + n_j
            k = self.count[g]
            for i, (sl, _, offset, G) in enumerate(self.segments):
                k_s = k[sl]
                cap = self.caps[i]
                if int(k_s.max()) >= cap:
                    grown = np.zeros((G, 2 * cap))
                    grown[:, :cap] = self.tables[i]
                    self.tables[i] = grown
                    self.caps[i] = cap = 2 * cap
                self.tables[i].reshape(-1)[(g[sl] - offset) * cap + k_s] = b_j[sl]
            self.count[g] = k + 1
            self.sum[g] += b_j
            self.low[g] = np.minimum(self.low[g], b_j)
            self.high[g] = np.maximum(self.high[g], b_j)
            r_j = np.sqrt(D_flat[self.d_base + m_j * N + n_j])
            self.part[g] += np.abs(r_j - b_j)
        groups = (self.base + m_t * N)[:, None] + self.tasks  # (rows, N): the routed expert
        count = self.count[groups]
        c = count.astype(float)
        s = self.sum[groups]
        high = self.high[groups]
        r = root_new  # (rows, N): its new distances
        part = np.where(r >= high, c * r - s, s - c * r)
        mixed = (r > self.low[groups]) & (r < high)
        for i, (sl, _, offset, _) in enumerate(self.segments):
            mixed_s = mixed[sl]
            if not mixed_s.any():
                continue
            n_mixed = count[sl][mixed_s]
            size = int(n_mixed.max())
            terms = self.tables[i][groups[sl][mixed_s] - offset, :size]  # unused slots hold 0
            listed = np.arange(size)[None, :] < n_mixed[:, None]
            # |r - b_j| on the listed terms; the others stay 0
            np.subtract(r[sl][mixed_s][:, None], terms, out=terms, where=listed)
            np.abs(terms, out=terms)
            # summed left to right: the padding's zeros then change no bit, so a row's sum
            # does not depend on the longest group of the rows simulated with it (a pairwise
            # sum's blocking follows the padded length)
            part[sl][mixed_s] = np.cumsum(terms, axis=1, out=terms)[:, -1]
        self.part[groups] = part

    def totals(self) -> list[tuple[slice, np.ndarray]]:
        """The code's forgetting sum of every row, segment by segment."""
        return [
            (sl, self.part[offset:offset + G].reshape(sl.stop - sl.start, M, self.N).sum(
                axis=(1, 2)))
            for sl, M, offset, G in self.segments
        ]
