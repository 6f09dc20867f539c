"""Over-specified rate experiments of seed 000's answers: Top-K gating and top-1 routing.

The exact-specified designs (``k = k*``) are :mod:`moetheory.estimation.variant_rates`.
Here the fitted model has **more atoms than the truth** (``k > k*``), the setting seed 000's
sparse loss :math:`\\mathcal{L}_2` (L75) is written for (its squared terms on Voronoi cells
with more than one fitted atom):

``"topk"`` (seed 000, L73--L81)
    Truth: the Top-2 gate over ``k* = 3`` tanh experts of
    :func:`~moetheory.estimation.variant_rates.true_variant`; fitted: ``k = 4`` atoms with a
    Top-``K`` gate, ``K = 2`` (the seed's model: the same ``K`` as the truth) or ``K = 3``
    (``K + 1``: room for a split true expert to take two slots).
``"top1"`` (seed 000, L169, L207)
    Truth: the top-1 gate over ``k* = 2`` two-layer ReLU experts with a last-layer bias;
    fitted: ``k = 3`` atoms, top-1 gate.

Every fit starts from two targets (:func:`split_start`), each plus :math:`N(0, s^2)`
noise (:math:`s` = ``start_noise``) drawn from the seed (so that copies are not tied): the *split*
target (atom 1 over
two copies) and the *dead* target (an extra copy of atom 1 whose score lies below every true
score); the full design, with the truth's K, also starts at the dead target itself, without
noise (it represents the truth's function exactly: the exact-specified designs' *target*
start); where the winner falls short of the truth's objective, the dead start (the truth's
function up to the noise) and the target start are fitted again along the *local path*
(:meth:`~moetheory.estimation.variant_rates.VariantDesign.local_stages`: the annealed stages
at relative temperature or softness at most
:data:`~moetheory.estimation.variant_rates.LOCAL_ENTRY`, then the last stage) and, in the
full design, a winner still short goes through the gating polish
(:func:`~moetheory.estimation.variants.polish_gate`); the lowest objective wins. Both
restarts run only where the fitted gate's K is the truth's (the fitted class then contains
the truth's function; with ``K = K* + 1`` it does not, and a fit above the truth's
objective is no optimiser failure). The annealed stages of
:meth:`~moetheory.estimation.variant_rates.VariantDesign.stages` run for a fixed number of
iterations each (a homotopy, not the estimator); the last stage, the hard Top-K / top-1
objective, runs to the stopping rule of the dense rates fits
(:func:`~moetheory.estimation.variants.fit_to_rule`: Gauss--Newton decrement at most
``lm_tol`` times the objective, or a step rejected at ``lambda >= 1e8``) or to an iteration
cap, and each fit records whether it *converged* (stopped by the rule). The exact-specified
designs run their last stage the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from moetheory.estimation.models import MixingMeasure, Router
from moetheory.estimation.variant_rates import (
    _check_sizes,
    _check_stages,
    _fill_design,
    _RatesDesign,
    _scores,
    rates_records,
    score_spread,
    true_variant,
)
from moetheory.estimation.variants import (
    expert_outputs,
    expert_size,
    variant_model,
)
from moetheory.estimation.voronoi import canonical_form, sparse_voronoi_loss

__all__ = [
    "DEAD_SHIFT",
    "OVER_SETTINGS",
    "OverDesign",
    "active_atoms",
    "overspecified_design",
    "run_overspecified",
    "split_start",
    "start_names",
    "top1_many_to_one",
]

#: The over-specified settings.
OVER_SETTINGS: tuple[str, ...] = ("top1", "topk")
#: True atoms ``k*`` and the truth's gate ``K*`` per setting.
_TRUE: dict[str, tuple[int, int]] = {"top1": (2, 1), "topk": (3, 2)}
#: How far below atom 1's score a dead copy starts (the true scores span less than 2.5).
DEAD_SHIFT = 4.0


@dataclass(frozen=True)
class OverDesign(_RatesDesign):
    """One over-specified experiment (recorded in the evidence).

    Parameters
    ----------
    setting : {"top1", "topk"}
        Which experiment.
    k : int
        Fitted atoms, ``> k*``.
    top_k : int
        The fitted gate's ``K``, in ``[1, k]``.
    n_grid : tuple of int
        Sample sizes (at least two, each ``>= 10``).
    replicates : int
        Data sets per ``(router, n)``, ``>= 2``.
    iterations : int
        LM iterations of each annealed stage, ``>= 1``.
    cap : int
        Iteration cap of the last (hard-gate) stage, ``>= 1``.
    lm_tol : float
        Stopping rule of the last stage
        (:func:`~moetheory.estimation.variants.fit_to_rule`), ``> 0``.
    routers : tuple of str
        Routers run.
    sigma : float
        Noise standard deviation.
    tau1, tau2 : float
        The perturbed router's noises.
    x_half_width : float
        Inputs are uniform on :math:`[-w, w]^2`, :math:`w` = ``x_half_width``.
    start_noise : float
        Standard deviation of the noise on the split start, positive.
    n_eval : int
        Evaluation inputs of the losses.
    anneal : tuple of float
        Relative temperatures (top1) or softnesses (topk) of the annealed stages.
    true : dict
        The true parameters (filled in).
    local_entry : float
        Where the winner falls short, the dead start is fitted again along the *local
        path*, the annealed stages at
        relative temperature or softness at most ``local_entry``
        (:data:`~moetheory.estimation.variant_rates.LOCAL_ENTRY`), then the last stage;
        ``0``: no local path.
    polish : bool
        Whether a winner still short of the target's objective goes through gating steps
        on the hard objective itself
        (:func:`~moetheory.estimation.variants.polish_gate`; top1 and topk).
    target_start : bool
        Whether each replicate also starts at the dead target itself, without noise (the
        truth's function; the exact-specified designs' target start), and runs the local
        path from it too where the winner falls short.

    Raises
    ------
    ValueError
        On any parameter outside its range.

    Notes
    -----
    The truth has ``k*`` atoms and gate ``K*`` (top1: 2 and 1; topk: 3 and 2). The fields
    it shares with :class:`~moetheory.estimation.variant_rates.VariantDesign` (``routers``,
    ``sigma``, ``tau1``, ``tau2``, ``x_half_width``, ``n_eval``, ``anneal``, ``true``,
    ``lm_tol``, ``local_entry``, ``polish``) are declared once and are keyword-only.

    See Also
    --------
    overspecified_design : the quick and full designs.
    run_overspecified : runs one router.

    Examples
    --------
    >>> OverDesign("topk", 4, 2, (50, 100), 3, 2, 20).k_star
    3
    >>> OverDesign("topk", 3, 2, (50, 100), 3, 2, 20)
    Traceback (most recent call last):
    ...
    ValueError: k must be an integer > k* = 3 (over-specified), got 3
    """

    setting: str
    k: int
    top_k: int
    n_grid: tuple[int, ...]
    replicates: int
    iterations: int
    cap: int
    start_noise: float = 0.1
    target_start: bool = False

    _DERIVED: ClassVar[tuple[str, ...]] = ("k_star", "true_top_k")

    def __post_init__(self) -> None:
        if self.setting not in OVER_SETTINGS:
            raise ValueError(f"setting must be one of {OVER_SETTINGS}, got {self.setting!r}")
        ks = _TRUE[self.setting][0]
        if not isinstance(self.k, int) or self.k <= ks:
            raise ValueError(f"k must be an integer > k* = {ks} (over-specified), got {self.k}")
        if not isinstance(self.top_k, int) or not 1 <= self.top_k <= self.k:
            raise ValueError(f"top_k must be an integer in [1, k] = [1, {self.k}], "
                             f"got {self.top_k!r}")
        _check_sizes(self)
        _check_stages(self)
        if not self.start_noise > 0:
            raise ValueError(f"start_noise must be > 0, got {self.start_noise!r}")
        _fill_design(self)

    @property
    def k_star(self) -> int:
        """Number of true atoms."""
        return _TRUE[self.setting][0]

    @property
    def true_top_k(self) -> int:
        """The truth's gate ``K*``."""
        return _TRUE[self.setting][1]


def overspecified_design(setting: str, profile: str = "quick", top_k: int | None = None,
                         routers: tuple[str, ...] = ("linear", "cosine", "perturbed")
                         ) -> OverDesign:
    """The over-specified design of a setting for a profile.

    Parameters
    ----------
    setting : {"top1", "topk"}
        The setting (top1: ``k = 3``; topk: ``k = 4``).
    profile : {"quick", "full"}
        quick: :math:`n` from 100 to 800 (4 sizes), 5 replicates, 8 iterations per annealed
        stage, cap 150, no gating polish (a rule fixed on CPU cost: it took 13 s of the quick
        profile's CPU); full: :math:`n` from 100 to 3200 (6 sizes), 10 replicates, 12
        iterations, cap
        300, the gating polish of short winners and the target start (rules fixed on CPU
        cost: with the target start pcr.rates.top1.over-specified takes about 38 CPU s
        instead of 22).
    top_k : int, optional
        The fitted gate's K (default: the truth's, 1 for top1 and 2 for topk).
    routers : tuple of str
        Routers run.

    Returns
    -------
    OverDesign

    Raises
    ------
    ValueError
        If ``profile`` or ``setting`` is unknown.

    Notes
    -----
    ``k = k* + 1`` in both settings; the last stage runs to
    :data:`~moetheory.estimation.experiment.LM_TOL` (the dense rates fits' rule) or the cap.

    See Also
    --------
    OverDesign : the fields.

    Examples
    --------
    >>> overspecified_design("topk").k, overspecified_design("topk").top_k
    (4, 2)
    >>> overspecified_design("topk", "slow")
    Traceback (most recent call last):
    ...
    ValueError: profile must be 'quick' or 'full', got 'slow'
    """
    if setting not in OVER_SETTINGS:
        raise ValueError(f"setting must be one of {OVER_SETTINGS}, got {setting!r}")
    k_star, k_true = _TRUE[setting]
    kk = k_true if top_k is None else top_k
    if profile == "quick":
        return OverDesign(setting, k_star + 1, kk, (100, 200, 400, 800), 5, 8, 150,
                          routers=routers, polish=False)
    if profile == "full":
        return OverDesign(setting, k_star + 1, kk, (100, 200, 400, 800, 1600, 3200), 10, 12,
                          300, routers=routers, target_start=True)
    raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")


def split_start(setting: str, k: int, kind: str = "split") -> np.ndarray:
    """A ``k``-atom start built from the true atoms: atom 1 split, or extra dead atoms.

    Parameters
    ----------
    setting : {"top1", "topk"}
        The setting.
    k : int
        Fitted atoms, ``> k*``.
    kind : {"split", "dead"}
        ``"split"``: atom 1 over ``m = k - k* + 1`` equal copies carrying
        ``beta0* - log m`` each (their masses sum to atom 1's; top1: ``beta0*`` each, as
        the top-1 weight is 1 and ``beta0`` only sets the partition); ``"dead"``: the true atoms
        plus ``k - k*`` copies of atom 1 with ``beta0`` lowered by :data:`DEAD_SHIFT`.

    Returns
    -------
    ndarray
        ``theta`` of a ``k``-atom measure, layout ``[beta0, beta1, eta]``, the copies first.

    Raises
    ------
    ValueError
        If ``setting`` or ``kind`` is unknown or ``k <= k*``.

    Notes
    -----
    Split: :math:`\\sum_{i\\in A_1} e^{\\beta_{0i}} = e^{\\beta^*_{01}}`, the same dense
    regression function as :math:`G_*`; under a hard gate the copies compete for the K
    slots. Top-1: identical copies tie and the lower index wins, so the split measure
    represents :math:`f_{G_*}` exactly. Dead: a copy's score is atom 1's minus
    :data:`DEAD_SHIFT`, below every true score on the input square, so with the truth's K
    it is never selected and the measure represents :math:`f_{G_*}` exactly (the fitted
    class contains the truth).

    See Also
    --------
    run_overspecified : perturbs it per replicate.

    Examples
    --------
    >>> t = split_start("topk", 4)
    >>> t.size, round(float(np.exp(t[0]) + np.exp(t[1])), 12) == round(float(np.exp(0.5)), 12)
    (24, True)
    """
    if setting not in OVER_SETTINGS:
        raise ValueError(f"setting must be one of {OVER_SETTINGS}, got {setting!r}")
    ks = _TRUE[setting][0]
    if k <= ks:
        raise ValueError(f"k must be > k* = {ks}, got {k}")
    family = "relu2" if setting == "top1" else "tanh"
    p = expert_size(family, 2)
    t = true_variant(setting)
    b0, b1, eta = t[:ks], t[ks : 3 * ks].reshape(ks, 2), t[3 * ks :].reshape(ks, p)
    if kind not in ("split", "dead"):
        raise ValueError(f"kind must be 'split' or 'dead', got {kind!r}")
    m = k - ks + 1
    idx = [0] * (m - 1) + list(range(ks))
    b0n = b0[idx].copy()
    if kind == "split" and setting == "topk":
        b0n[[i for i, j in enumerate(idx) if j == 0]] = b0[0] - np.log(m)
    else:
        b0n[: m - 1] = b0[0] - DEAD_SHIFT
    return np.concatenate([b0n, b1[idx].ravel(), eta[idx].ravel()])


def active_atoms(theta: np.ndarray, k: int, router: Router, x: np.ndarray, top_k: int
                 ) -> np.ndarray:
    """The atoms the Top-K gate selects on at least one input.

    Parameters
    ----------
    theta : ndarray of shape (P,)
        ``[beta0, beta1, eta]`` of ``k`` atoms in ``d = 2``.
    k : int
        Number of atoms.
    router : Router
        The router.
    x : ndarray of shape (m, 2)
        Inputs.
    top_k : int
        The gate's K, in ``[1, k]``.

    Returns
    -------
    ndarray of int
        Sorted indices of the selected atoms.

    Raises
    ------
    ValueError
        If ``top_k`` is outside ``[1, k]``.

    Notes
    -----
    An atom never among the K largest scores :math:`u_i(x)` does not enter
    :math:`f_G`: its parameters, mass included, are not identified by the data, so a loss
    that counts it need not go to 0 (ties: lower index, as the gate).

    See Also
    --------
    run_overspecified : the loss on the active atoms.

    Examples
    --------
    >>> t = np.array([0.0, -9.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    >>> active_atoms(t, 2, Router("linear"), np.array([[0.5, 0.5], [-0.5, 0.1]]), 1).tolist()
    [0]
    """
    if not 1 <= top_k <= k:
        raise ValueError(f"top_k must be in [1, k] = [1, {k}], got {top_k!r}")
    u = _scores(theta, k, router, x)
    order = np.argsort(-u, axis=1, kind="stable")[:, :top_k]
    return np.unique(order)


def top1_many_to_one(theta: np.ndarray, theta_star: np.ndarray, k: int, k_star: int,
                     router: Router, x: np.ndarray) -> dict[str, float]:
    """Top-1 losses with a many-to-one matching of fitted to true atoms.

    Parameters
    ----------
    theta : ndarray
        Fitted ``[beta0, beta1, eta]`` (``k`` atoms, relu2 experts, ``d = 2``).
    theta_star : ndarray
        True parameters (``k_star`` atoms).
    k, k_star : int
        Fitted and true atoms, ``k >= k_star``.
    router : Router
        The router (of both).
    x : ndarray of shape (m, 2)
        Evaluation inputs (a sample of :math:`\\mu`).

    Returns
    -------
    dict
        ``regression_l2`` :math:`\\|f_{G}-f_{G_*}\\|_{L^2(\\mu)}`, ``routing``
        :math:`\\mu\\{x:\\tau(\\hat i(x))\\ne i^*(x)\\}`, ``expert_l2``
        :math:`\\sum_j\\|(h_{\\hat i}-h^*_j)\\,1\\{i^*=j=\\tau(\\hat i)\\}\\|_{L^2(\\mu)}`.

    Raises
    ------
    ValueError
        If ``k < k_star``.

    Notes
    -----
    :math:`\\hat i(x)`, :math:`i^*(x)` are the fitted and true argmax atoms;
    :math:`\\tau:[k]\\to[k_*]` ranges over all :math:`k_*^k` maps (several fitted atoms may
    play one true atom, the Voronoi cells of an over-specified fit) and the lexicographically
    smallest (routing, expert) pair is kept. Each fitted expert is compared with its true
    match on the inputs it serves correctly; elsewhere it is not identified.

    See Also
    --------
    moetheory.estimation.variant_rates.run_variant : the exact-specified top-1 losses.

    Examples
    --------
    >>> t = true_variant("top1")
    >>> top1_many_to_one(t, t, 2, 2, Router("linear"), np.zeros((3, 2)) + 0.3)["routing"]
    0.0
    """
    if k < k_star:
        raise ValueError(f"k must be >= k_star = {k_star}, got {k}")
    i_hat = np.argmax(_scores(theta, k, router, x), axis=1)
    i_star = np.argmax(_scores(theta_star, k_star, router, x), axis=1)
    h = expert_outputs(theta[3 * k :].reshape(1, k, -1), x[None], "relu2")[0]
    hs = expert_outputs(theta_star[3 * k_star :].reshape(1, k_star, -1), x[None], "relu2")[0]
    served = h[i_hat, np.arange(x.shape[0])]
    reg = float(np.sqrt(np.mean((served - hs[i_star, np.arange(x.shape[0])]) ** 2)))
    best: tuple[float, float] | None = None
    for tau in itertools.product(range(k_star), repeat=k):
        t = np.array(tau)
        right = t[i_hat] == i_star
        routing = float(np.mean(~right))
        expert = sum(float(np.sqrt(np.mean(np.where(right & (i_star == j), served - hs[j], 0.0)
                                           ** 2))) for j in range(k_star))
        if best is None or (routing, expert) < best:
            best = (routing, expert)
    assert best is not None
    return {"regression_l2": reg, "routing": best[0], "expert_l2": best[1]}


def _topk_losses(theta, t_star, x_eval, design: OverDesign, router: str) -> dict[str, float]:
    rt = design.router(router)
    k, ks = design.k, design.k_star
    f = variant_model(theta[None], x_eval[None], k, rt, "tanh", top_k=design.top_k)[0]
    fs = variant_model(t_star[None], x_eval[None], ks, rt, "tanh", top_k=design.true_top_k)[0]
    est = MixingMeasure.from_vector(theta, k, 2)
    star = canonical_form(MixingMeasure.from_vector(t_star, ks, 2), router, design.tau1)
    act = active_atoms(theta, k, rt, x_eval, design.top_k)
    sub = MixingMeasure(est.beta0[act], est.beta1[act], est.eta[act])
    return {
        "regression_l2": float(np.sqrt(np.mean((f - fs) ** 2))),
        "sparse_l2": sparse_voronoi_loss(canonical_form(est, router, design.tau1), star,
                                         design.true_top_k),
        "sparse_l2_active": sparse_voronoi_loss(canonical_form(sub, router, design.tau1), star,
                                                design.true_top_k),
        "active": int(act.size),
    }


def _target_started(design: OverDesign) -> bool:
    """Whether the replicates of ``design`` also start at the dead target itself: asked for,
    and the fitted class contains the truth's function (the fitted gate's K is the truth's)."""
    return design.target_start and design.top_k == design.true_top_k


def start_names(design: OverDesign) -> tuple[str, ...]:
    """The names of a replicate's starts in the records of :func:`run_overspecified`.

    Parameters
    ----------
    design : OverDesign
        The experiment.

    Returns
    -------
    tuple of str
        The values ``start`` takes in the records, in the order of the starts: the noisy
        split and dead targets, the noise-free dead target where
        :attr:`OverDesign.target_start` asks for it (and the fitted gate's K is the
        truth's), then the local paths from the dead (and target) starts.

    Notes
    -----
    The target start is the dead target :func:`split_start` without noise: it represents
    :math:`f_{G_*}` exactly, as the exact-specified designs' start at their target does, so
    a fit from it reaches the truth's objective unless its annealed stages lead it away.

    See Also
    --------
    run_overspecified : the fits whose records name their starts.

    Examples
    --------
    >>> start_names(overspecified_design("top1", "quick"))
    ('split', 'dead', 'dead, local path')
    >>> start_names(overspecified_design("top1", "full"))
    ('split', 'dead', 'target', 'dead, local path', 'target, local path')
    """
    if _target_started(design):
        return ("split", "dead", "target", "dead, local path", "target, local path")
    return ("split", "dead", "dead, local path")


def run_overspecified(design: OverDesign, seed: int, router: str,
                      stop: Callable[[list[dict[str, Any]]], bool] | None = None
                      ) -> dict[str, Any]:
    """Fit every ``(n, replicate)`` of one router, over-specified, and return the losses.

    Parameters
    ----------
    design : OverDesign
        The experiment.
    seed : int
        Seed (the check's master seed); replicate ``rep`` at size ``n`` draws from
        ``default_rng([seed, 7, setting, K, router, n, rep])``.
    router, stop
        As in :func:`~moetheory.estimation.variant_rates.run_variant`.

    Returns
    -------
    dict
        ``records``: per fit ``n``, ``rep``, ``objective``, ``objective_at_target``,
        ``shortfall``, ``converged``, ``iterations`` (last stage) and the losses (topk:
        ``regression_l2``, ``sparse_l2``, ``sparse_l2_active``, ``active``; top1:
        ``regression_l2``, ``routing``, ``expert_l2``).

    Raises
    ------
    ValueError
        If ``router`` is not in the design.

    Notes
    -----
    Data :math:`Y=f_{G_*}(X)+\\varepsilon` with the truth's gate (``K*``); the fit has
    ``k`` atoms and the design's gate ``K``, started at both :func:`split_start` kinds plus
    noise, and at the noise-free dead target where :attr:`OverDesign.target_start` asks for
    it (where the winner falls short and the fitted gate's K is the truth's, the dead and
    target starts again along the local path, then the gating polish); the fit with the
    lowest objective wins
    (``start`` in the record: one of :func:`start_names`) and its
    convergence is the record's.
    ``shortfall``: the fit's objective exceeds the truth's on the same data by more than
    :math:`\\sigma^2/n` (meaningful when the fitted class contains :math:`f_{G_*}`).

    See Also
    --------
    moetheory.estimation.variants.fit_to_rule : the fit.

    Examples
    --------
    >>> d = OverDesign("topk", 4, 2, (30, 60), 2, 1, 3, routers=("perturbed",))
    >>> out = run_overspecified(d, 0, "perturbed")
    >>> len(out["records"]), out["records"][0]["converged"] in (True, False)
    (4, True)
    """
    if router not in design.routers:
        raise ValueError(f"router must be one of {design.routers}, got {router!r}")
    sid, rid = OVER_SETTINGS.index(design.setting), design.routers.index(router)
    rt = design.router(router)
    w = design.x_half_width
    t_star = true_variant(design.setting)
    starts0 = [split_start(design.setting, design.k, kind) for kind in ("split", "dead")]
    x_eval = np.random.default_rng([seed, 7, sid, 999]).uniform(-w, w, (design.n_eval, 2))
    spread = score_spread(design.setting, rt, x_eval)
    stages = design.stages(spread)
    exact = _target_started(design)
    names = start_names(design)

    def draw(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        xs, ys, starts = [], [], []
        for rep in range(design.replicates):
            rng = np.random.default_rng([seed, 7, sid, design.top_k, rid, n, rep])
            xs.append(rng.uniform(-w, w, (n, 2)))
            ys.append(design.sigma * rng.standard_normal(n))
            starts += [s0 + design.start_noise * rng.standard_normal(s0.size) for s0 in starts0]
            if exact:
                starts.append(starts0[1])
        x_all = np.stack(xs)
        f_star = variant_model(np.tile(t_star, (design.replicates, 1)), x_all, design.k_star,
                               rt, design.family, top_k=design.true_top_k)
        y = f_star + np.stack(ys)
        at_target = np.mean((f_star - y) ** 2, axis=1)
        return x_all, y, np.stack(starts), at_target

    def scored(theta: np.ndarray, rec: dict[str, Any]) -> dict[str, Any]:
        rec["start"] = names[rec["start"]]
        if design.setting == "topk":
            rec.update(_topk_losses(theta, t_star, x_eval, design, router))
        else:
            rec.update(top1_many_to_one(theta, t_star, design.k, design.k_star, rt, x_eval))
        return rec

    # where the winner falls short, the dead target (index 1, the truth's function up to the
    # start noise) and the target start (index 2) run the local path; only where the
    # fitted class contains the truth's
    # function (K = K*): elsewhere a fit above the truth's objective is no optimiser failure
    contains = design.top_k == design.true_top_k
    records = rates_records(design, rt, stages, draw, scored, stop,
                            design.local_stages(spread) if contains else (),
                            (1, 2) if exact else (1,), design.polish and contains)
    return {"records": records,
            "starts": {k: s0.tolist() for k, s0 in zip(names[:2], starts0, strict=True)}}
