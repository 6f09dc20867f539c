r"""Rate experiments of seed 000's answers: top-1 routing, Top-K sparse gating, misspecified data.

Three settings (:data:`SETTINGS`), each run for several routers on the data design of
:mod:`moetheory.estimation.experiment` (:math:`X \sim \mathrm{Uniform}([-2, 2]^2)`,
:math:`Y = q(X) + \varepsilon`, :math:`\varepsilon \sim N(0, \sigma^2)`, :math:`\sigma = 0.1`,
:math:`\tau_1 = \tau_2 = 1`):

``"top1"`` (seed 000, L169, L207)
    :math:`q = f_{G^*}` with the **top-1** gate (one expert per input, weight 1),
    :math:`k^* = 2` **two-layer ReLU experts with a last-layer bias** (``"relu2"``), fitted
    with :math:`k = 2`. Estimator: the top-1 objective is piecewise constant in the router
    parameters, so the fit anneals the dense gate :math:`\mathrm{softmax}(u/T)`,
    :math:`T/\mathrm{spread} = 0.3, 0.1, 0.03, 0.01, 0.003` and ends with a
    top-1 stage (:func:`~moetheory.estimation.variants.fit_variant`). Losses: the top-1
    regression error, the experts as functions on the inputs they serve,
    :math:`\sum_j \|(h(\cdot, \eta_{\pi(j)}) - h(\cdot, \eta^*_j)) 1_{X^*_j}\|_{L^2(\mu)}` (an
    expert is identified only where it is chosen), and the routing error
    :math:`\mu\{x : \pi(\hat\imath(x)) \ne i^*(x)\}` (the router's identifiable content: the
    partition), with :math:`\pi` the best of the :math:`k!` matchings.
``"topk"`` (seed 000, L73--L81; seed 002, L94)
    :math:`q = f_{G^*}` with the Top-2 gate over :math:`k^* = 3` tanh experts, fitted with
    :math:`k = 3` (exact-specified). Estimator: LM on the soft Top-K relaxation (softness 0.3,
    0.1, 0.03, 0.01, 0.003, 0.001 times the spread of the true score difference
    :math:`u_1 - u_2`; see :func:`~moetheory.estimation.variants.variant_model`), then on the
    actual Top-K objective (derivative on the current piece, a step accepted only if the
    objective decreases). Losses: :math:`\mathcal{L}_2` of seed 000 (L75,
    :func:`~moetheory.estimation.voronoi.sparse_voronoi_loss`) on canonical forms, the Top-K
    regression error and the parameter groups.
``"misspecified"`` (seed 000, L141--L151, L193)
    :math:`q_r = f^{(r)}_{G^*} + \varepsilon_q \psi` with
    :math:`\psi(x) = \sin(2 x_1) \cos(x_2)`, :math:`\varepsilon_q = 0.1`: not an MoE of the
    router :math:`r` (dense, tanh, :math:`k = 2`). The target :math:`\bar G_r` is a
    **reference fit**: the LM minimiser of the midpoint-rule approximation of
    :math:`\|q_r - f_G\|^2_{L^2(\mu)}` on an :math:`m \times m` grid, reached from :math:`G^*`
    (not certified to be the global minimiser). Losses to :math:`\bar G_r`:
    :math:`\mathcal{L}_{1,1}` on canonical forms, the parameter groups, the experts as
    functions and :math:`\|f_{G_n} - f_{\bar G}\|_{L^2(\mu)}`.

Every fit starts at the target itself, at the target plus :math:`N(0, 0.3^2)` noise and at
``restarts`` standard-normal points, and the lowest objective wins; where that winner falls
short of the target's objective, the start at the target is fitted again along the *local
path* (:meth:`VariantDesign.local_stages`: the annealed stages at relative temperature or
softness at most :data:`LOCAL_ENTRY`, then the last stage) and the lower objective wins;
a winner still short goes through gating steps on the hard objective itself
(:func:`~moetheory.estimation.variants.polish_gate`: a search of the router parameters with
the experts held, alternated with the last stage), kept where its objective is lower.
The annealed stages run a fixed number of iterations; the last stage runs to the stopping
rule of :func:`~moetheory.estimation.variants.fit_to_rule` or to the design's ``cap``, and
each record says whether its fit *converged* (:func:`best_fits`). The least squares estimate's
objective is at most the target's (below it by about :math:`\sigma^2 P / n`), so a winner above
the target's objective by more than :math:`\sigma^2 / n` is recorded as an optimiser *shortfall*
(``shortfall`` in the records); the claims decide a reading only where shortfalls are rare.
A fit started at the target and run on the piecewise-constant top-1 or Top-K objective alone
could keep the true partition; every start goes through an annealed relaxation first, which
moves the boundary by the data near it, so the partition is estimated. The wide relaxations
of the schedule's first stages move even the start at the target out of its neighbourhood,
to a boundary the last stage cannot move back (issue 32: at ``n = 3200`` 7 of 10 Top-K
winners of the full design were above the target's objective); the local path stays in the
neighbourhood the local-rate theory is about, and which path wins is decided by the
objective alone.
The rate is the log-log slope of the median loss
(:func:`~moetheory.estimation.experiment.slope_bootstrap`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import KW_ONLY, asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np

from moetheory.estimation.experiment import LM_TOL
from moetheory.estimation.models import MixingMeasure, Router
from moetheory.estimation.variants import (
    Stage,
    expert_outputs,
    fit_to_rule,
    fit_variant,
    polish_gate,
    variant_jacobian,
    variant_model,
)
from moetheory.estimation.voronoi import (
    canonical_form,
    cell_group_losses,
    sparse_voronoi_loss,
    voronoi_loss,
)

__all__ = [
    "LOCAL_ENTRY",
    "SETTINGS",
    "VariantDesign",
    "best_fits",
    "group_losses",
    "misspecified_target",
    "rates_records",
    "run_variant",
    "score_spread",
    "true_variant",
    "variant_design",
]

#: The three settings of seed 000's answers.
SETTINGS: tuple[str, ...] = ("top1", "topk", "misspecified")
#: Size of the non-MoE perturbation ``psi`` in the misspecified setting.
EPS_Q = 0.1
#: The local start enters the annealing schedule at the stages whose relative temperature
#: (top1) or softness (topk) is at most this: a relaxation that differs from the hard gate
#: only on inputs within 1% of the score spread of a selection boundary, so that it moves
#: the boundary by the data near it without first leaving the target's neighbourhood.
LOCAL_ENTRY = 0.01


def true_variant(setting: str) -> np.ndarray:
    """The true parameters ``theta* = [beta0*, beta1*, eta*]`` of a setting.

    Parameters
    ----------
    setting : {"top1", "topk", "misspecified"}
        The setting.

    Returns
    -------
    ndarray
        ``k* = 2`` atoms in ``d = 2`` (top1: two-layer ReLU experts, ``p = 9``; misspecified:
        tanh, ``p = 3``; the misspecified data start from this ``G*``) or ``k* = 3`` tanh
        atoms (topk). ``beta1*`` of the first two atoms, and ``beta0*`` except for top1, are
        those of :func:`~moetheory.estimation.experiment.true_measure`.

    Raises
    ------
    ValueError
        If ``setting`` is unknown.

    Notes
    -----
    Layout :math:`\\theta = (\\beta_0, \\beta_1, \\eta)` as
    :meth:`~moetheory.estimation.models.MixingMeasure.to_vector`; top1 uses
    :math:`\\beta_0^* = (0.1, 0)` (with 0.5 the perturbed router, whose scores lie within
    :math:`\\pm 0.4`, would send 99% of the inputs to expert 1).

    See Also
    --------
    VariantDesign : the experiment around it.

    Examples
    --------
    >>> true_variant("top1").size, true_variant("topk").size, true_variant("misspecified").size
    (24, 18, 12)
    """
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    b0 = [0.5, 0.0]
    b1 = [1.0, 0.5, -0.5, 1.0]
    if setting == "top1":
        # beta0* = (0.1, 0): with 0.5 the perturbed router (scores within +-0.4) would send
        # 99% of the inputs to expert 1. eta = (a_1, a_2, b, w, c): every hidden unit's kink
        # crosses the input square
        eta = [1.0, -0.5, 0.5, 1.0, 0.2, -0.3, 1.0, -0.8, 0.1,
               -0.8, 0.6, 0.3, -1.0, 0.1, 0.4, -0.7, 1.2, -0.2]
        return np.array([0.1, 0.0, *b1, *eta])
    eta = [1.0, -0.5, 0.5, -0.5, 1.0, -0.5]
    if setting == "topk":
        return np.array([*b0, -0.3, *b1, -0.6, -0.9, *eta, 0.8, 0.8, 0.2])
    return np.array(b0 + b1 + eta)


def _true_k(setting: str) -> int:
    return 3 if setting == "topk" else 2


#: Default relative temperatures (top1) or softnesses (topk) of the annealed stages.
_ANNEAL: dict[str, tuple[float, ...]] = {"top1": (0.3, 0.1, 0.03, 0.01, 0.003),
                                         "topk": (0.3, 0.1, 0.03, 0.01, 0.003, 0.001)}


def _check_sizes(design: Any) -> None:
    """The checks of a rates design's sample sizes and replicates."""
    if len(design.n_grid) < 2 or min(design.n_grid) < 10:
        raise ValueError(f"n_grid must hold at least 2 sizes n >= 10, got {design.n_grid}")
    if design.replicates < 2:
        raise ValueError(f"replicates must be >= 2, got {design.replicates}")


def _check_stages(design: Any) -> None:
    """The checks of a rates design's iterations, cap, stopping rule and local entry."""
    if not 0 <= design.local_entry <= 1:
        raise ValueError(f"local_entry must be in [0, 1], got {design.local_entry!r}")
    if design.iterations < 1 or design.cap < 1:
        raise ValueError(f"iterations and cap must be >= 1, got {design.iterations}, "
                         f"{design.cap}")
    if not design.lm_tol > 0:
        raise ValueError(f"lm_tol must be > 0, got {design.lm_tol!r}")


def _fill_design(design: Any) -> None:
    """Check a rates design's routers; fill in its true parameters and default schedule."""
    for r in design.routers:
        Router(r, design.tau1, design.tau2)
    if not design.true:
        object.__setattr__(design, "true", {"theta": true_variant(design.setting).tolist()})
    if not design.anneal:
        object.__setattr__(design, "anneal", _ANNEAL.get(design.setting, ()))


def _local_stages(design: Any, spread: float) -> tuple[Stage, ...]:
    """The local path: the annealed stages at relative temperature or softness at most
    ``design.local_entry``, then the last stage (empty: no local path)."""
    if design.setting not in ("top1", "topk") or not design.local_entry > 0:
        return ()
    full = _stages(design, spread)
    keep = [st for a, st in zip(design.anneal, full[:-1], strict=True)
            if a <= design.local_entry]
    return (*keep, full[-1])


def _stages(design: Any, spread: float) -> tuple[Stage, ...]:
    """A rates design's stages: annealed (top1: temperatures, topk: softnesses, ``a *
    spread`` for ``a`` in ``design.anneal``), then the last stage with ``design.cap``."""
    it = design.iterations
    if design.setting == "top1":
        anneal = (Stage(a * spread, None, it) for a in design.anneal)
        return (*anneal, Stage(1.0, 1, design.cap))
    if design.setting == "topk":
        soft = tuple(Stage(1.0, design.top_k, it, a * spread) for a in design.anneal)
        return (*soft, Stage(1.0, design.top_k, design.cap))
    return (Stage(1.0, None, design.cap),)


@dataclass(frozen=True)
class _RatesDesign:
    """What the sparse-gate rates designs share (:class:`VariantDesign` and
    :class:`~moetheory.estimation.overspecified.OverDesign`): the setting, the fields after it
    (keyword-only, documented by each design), family, stages, router and evidence."""

    setting: str
    _: KW_ONLY
    routers: tuple[str, ...] = ("linear", "cosine", "perturbed")
    sigma: float = 0.1
    tau1: float = 1.0
    tau2: float = 1.0
    x_half_width: float = 2.0
    n_eval: int = 2000
    anneal: tuple[float, ...] = ()
    true: dict[str, Any] = field(default_factory=dict)
    lm_tol: float = LM_TOL
    local_entry: float = LOCAL_ENTRY
    polish: bool = True

    #: The derived properties :meth:`to_dict` records besides the fields (and ``family``).
    _DERIVED: ClassVar[tuple[str, ...]] = ()

    @property
    def family(self) -> str:
        """Expert family: ``"relu2"`` for top1, ``"tanh"`` otherwise."""
        return "relu2" if self.setting == "top1" else "tanh"

    def stages(self, spread: float = 1.0) -> tuple[Stage, ...]:
        """The fit's stages.

        top1 anneals the dense gate ``softmax(u/T)`` over ``T = a * spread`` for ``a`` in
        ``anneal`` (default 0.3, 0.1, 0.03, 0.01, 0.003; ``spread`` is the standard
        deviation of the true score difference ``u_1 - u_2`` over the evaluation inputs, so
        that the schedule has the same meaning for every router) then fits the top-1 gate;
        topk anneals the soft Top-K over the softnesses ``a * spread`` (default ``a`` = 0.3,
        0.1, 0.03, 0.01, 0.003, 0.001) then fits the hard gate; misspecified fits the dense
        gate. Annealed stages run ``iterations`` each; the last stage (the estimator's
        objective) has ``cap`` iterations and runs to the stopping rule.
        """
        return _stages(self, spread)

    def local_stages(self, spread: float = 1.0) -> tuple[Stage, ...]:
        """The local path's stages: those of :meth:`stages` whose relative temperature (top1)
        or softness (topk) is at most ``local_entry``, then the last stage; empty for the
        misspecified setting (one dense stage) or ``local_entry = 0``."""
        return _local_stages(self, spread)

    def router(self, kind: str) -> Router:
        """The :class:`Router` of the given kind with this design's ``tau1``, ``tau2``."""
        return Router(kind, self.tau1, self.tau2)

    def to_dict(self) -> dict[str, Any]:
        """The design as JSON-able evidence (with its derived properties and ``family``)."""
        out = asdict(self)
        out.update({name: getattr(self, name) for name in (*self._DERIVED, "family")})
        return out


@dataclass(frozen=True)
class VariantDesign(_RatesDesign):
    """Everything that defines one setting's experiment (recorded in the evidence).

    Parameters
    ----------
    setting : {"top1", "topk", "misspecified"}
        Which experiment.
    n_grid : tuple of int
        Sample sizes (at least two, each ``>= 10``).
    replicates : int
        Data sets per ``(router, n)``, ``>= 2``.
    restarts : int
        Standard-normal starts besides the one near the target, ``>= 0``.
    iterations : int
        LM iterations of each annealed stage, ``>= 1``.
    grid : int
        Midpoint-rule grid size ``m`` of the misspecified reference fit, ``>= 8``.
    routers : tuple of str
        Routers run.
    sigma : float
        Noise standard deviation.
    tau1, tau2 : float
        The perturbed router's noises (eq. 8 of seed 002).
    x_half_width : float
        Inputs are uniform on :math:`[-w, w]^2`, :math:`w` = ``x_half_width``.
    start_noise : float
        Standard deviation of the noise added to the target for the noisy start (``0``: no
        noisy start).
    n_eval : int
        Number of evaluation inputs of the losses.
    true : dict
        The true parameters, filled in from :func:`true_variant`.
    anneal : tuple of float
        Relative temperatures (top1) or softnesses (topk) of the annealed stages; empty:
        the setting's default.
    cap : int
        Iteration cap of the last stage (the estimator's own objective), ``>= 1``.
    lm_tol : float
        Stopping rule of the last stage
        (:func:`~moetheory.estimation.variants.fit_to_rule`), ``> 0``.
    local_entry : float
        Where the winner falls short of the target's objective, the target start is fitted
        again along the *local path*, the annealed stages at relative temperature or
        softness at most ``local_entry`` (:data:`LOCAL_ENTRY`), then the last stage; ``0``:
        no local path.
    polish : bool
        Whether a winner still short of the target's objective goes through gating steps
        on the hard objective itself
        (:func:`~moetheory.estimation.variants.polish_gate`; top1 and topk).

    Raises
    ------
    ValueError
        On any parameter outside its range.

    Examples
    --------
    >>> VariantDesign("topk", (50, 100), 2, 0, 5).k, VariantDesign("topk", (50, 100), 2, 0, 5).top_k
    (3, 2)
    >>> VariantDesign("top3", (50, 100), 2, 0, 5)
    Traceback (most recent call last):
    ...
    ValueError: setting must be one of ('top1', 'topk', 'misspecified'), got 'top3'

    Notes
    -----
    ``k = k*`` (exact-specified) in every setting; the gate's ``K`` is 1 (top1), 2 (topk)
    or dense (misspecified). The fields it shares with
    :class:`~moetheory.estimation.overspecified.OverDesign` (``routers``, ``sigma``, ``tau1``,
    ``tau2``, ``x_half_width``, ``n_eval``, ``anneal``, ``true``, ``lm_tol``, ``local_entry``,
    ``polish``) are declared once and are keyword-only.

    See Also
    --------
    variant_design : the quick and full designs.
    run_variant : runs one router of a design.
    """

    setting: str
    n_grid: tuple[int, ...]
    replicates: int
    restarts: int
    iterations: int
    grid: int = 64
    start_noise: float = 0.3
    cap: int = 150

    _DERIVED: ClassVar[tuple[str, ...]] = ("k", "top_k")

    def __post_init__(self) -> None:
        if self.setting not in SETTINGS:
            raise ValueError(f"setting must be one of {SETTINGS}, got {self.setting!r}")
        _check_sizes(self)
        if self.restarts < 0:
            raise ValueError(f"restarts must be >= 0, got {self.restarts}")
        if self.start_noise < 0:
            raise ValueError(f"start_noise must be >= 0, got {self.start_noise}")
        _check_stages(self)
        if self.grid < 8:
            raise ValueError(f"grid must be >= 8, got {self.grid}")
        _fill_design(self)

    @property
    def k(self) -> int:
        """Number of fitted atoms (exact-specified: ``k = k*``)."""
        return _true_k(self.setting)

    @property
    def top_k(self) -> int | None:
        """The gate's K: 1 (top1), 2 (topk) or ``None`` (dense, misspecified)."""
        return {"top1": 1, "topk": 2}.get(self.setting)


def variant_design(setting: str, profile: str = "quick") -> VariantDesign:
    r"""The design of a setting for a profile.

    Parameters
    ----------
    setting : {"top1", "topk", "misspecified"}
        The setting.
    profile : {"quick", "full"}
        quick: :math:`n` from 100 to 800 (4 sizes), 4 replicates, 10 LM iterations per
        annealed stage, last stage capped at 150, reference grid :math:`48 \times 48`, only the
        start at the target; full: :math:`n` from 100 to 3200 (6 sizes), 10 replicates, 12
        iterations per annealed stage, cap 300, reference grid :math:`160 \times 160`, starts at
        the target and near it. Neither uses a random
        restart; in both, a replicate whose winner falls short of the target's objective
        is refitted from the target along the local path (top1, topk); only the full
        design polishes a winner still short by gating steps (a rule fixed on CPU cost: the
        polish took 13 s of the quick profile's CPU). The last stage runs to
        :data:`~moetheory.estimation.experiment.LM_TOL`.

    Returns
    -------
    VariantDesign

    Raises
    ------
    ValueError
        If ``profile`` or ``setting`` is unknown.

    Notes
    -----
    The slope over :math:`n \in [100, 3200]` (full) separates :math:`n^{-1/2}` from
    :math:`n^{-0.18}` only when the replicate spread is small; the quick design is a smoke
    test whose readings are often inconclusive.

    See Also
    --------
    VariantDesign : the fields.

    Examples
    --------
    >>> variant_design("top1").n_grid
    (100, 200, 400, 800)
    >>> variant_design("top1", "slow")
    Traceback (most recent call last):
    ...
    ValueError: profile must be 'quick' or 'full', got 'slow'
    """
    if profile == "quick":
        return VariantDesign(setting, (100, 200, 400, 800), 4, 0, 10, grid=48, start_noise=0.0,
                             cap=150, polish=False)
    if profile == "full":
        return VariantDesign(setting, (100, 200, 400, 800, 1600, 3200), 10, 0, 12, grid=160,
                             cap=300)
    raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")


def _psi(x: np.ndarray) -> np.ndarray:
    return np.sin(2.0 * x[..., 0]) * np.cos(x[..., 1])


def _q(design: VariantDesign, router: str, x: np.ndarray) -> np.ndarray:
    """The regression function of the data (x of shape (G, n, 2))."""
    t = true_variant(design.setting)
    theta = np.broadcast_to(t, (x.shape[0], t.size))
    f = variant_model(theta, x, design.k, design.router(router), design.family,
                      top_k=design.top_k)
    return f + EPS_Q * _psi(x) if design.setting == "misspecified" else f


def misspecified_target(design: VariantDesign, router: str) -> dict[str, Any]:
    """The reference fit ``G-bar`` of the misspecified setting for one router.

    Parameters
    ----------
    design : VariantDesign
        A design with ``setting="misspecified"``; ``design.grid`` is the quadrature size ``m``.
    router : str
        The router of the model class.

    Returns
    -------
    dict
        ``measure`` (the :class:`MixingMeasure` G-bar), ``objective``
        (:math:`\\approx\\|q_r - f_{\\bar G}\\|^2_{L^2(\\mu)}`), ``gradient_norm`` (of the
        quadrature objective at G-bar), ``grid``.

    Raises
    ------
    ValueError
        If the design is not misspecified.

    Notes
    -----
    :math:`\\bar G = \\arg\\min_G \\sum_{a,b} m^{-2} (q_r(x_{ab}) - f_G(x_{ab}))^2` over the
    midpoints :math:`x_{ab}` of an :math:`m\\times m` grid of :math:`[-2, 2]^2`, reached by
    LM from :math:`G_*` (a local minimiser; global minimality is not certified).

    See Also
    --------
    run_variant : uses it as the misspecified target.

    Examples
    --------
    >>> d = VariantDesign("misspecified", (50, 100), 2, 0, 5, grid=16)
    >>> out = misspecified_target(d, "linear")
    >>> out["measure"].k, out["objective"] > 0
    (2, True)
    """
    if design.setting != "misspecified":
        raise ValueError(f"design.setting must be 'misspecified', got {design.setting!r}")
    m = design.grid
    h = 2 * design.x_half_width / m
    g1 = -design.x_half_width + h * (np.arange(m) + 0.5)
    X = np.stack(np.meshgrid(g1, g1, indexing="ij"), -1).reshape(1, -1, 2)
    y = _q(design, router, X)
    t = true_variant("misspecified")
    stages = (Stage(1.0, None, 60),)
    fit = fit_variant(X, y, t[None], 2, design.router(router), "tanh", stages)
    theta = fit.theta
    f, J = variant_jacobian(theta, X, 2, design.router(router), "tanh")
    grad = 2.0 * np.einsum("gnp,gn->gp", J, f - y) / X.shape[1]
    return {
        "measure": MixingMeasure.from_vector(theta[0], 2, 2),
        "objective": float(fit.objective[0]),
        "gradient_norm": float(np.sqrt(np.sum(grad * grad))),
        "grid": m,
    }


def group_losses(
    estimate: MixingMeasure,
    target: MixingMeasure,
    router: str,
    x_eval: np.ndarray,
    tau1: float = 1.0,
) -> dict[str, float]:
    """Voronoi loss and its parameter groups on canonical forms, and the experts as functions.

    Parameters
    ----------
    estimate, target : MixingMeasure
        Fitted and target measure (tanh experts).
    router : str
        Router kind (fixes the canonical form).
    x_eval : ndarray of shape (m, d)
        Inputs over which the experts' sup distance is taken.
    tau1 : float
        The perturbed router's ``tau1``.

    Returns
    -------
    dict
        ``voronoi_l1`` (:math:`L_{1,1}`), ``mass_l1``, ``beta1_l1``, ``expert_l1``,
        ``expert_sup``.

    Notes
    -----
    With cells :math:`A_j` of the canonical forms and normalised masses :math:`w_i`:
    mass :math:`\\sum_j|\\sum_{A_j} w_i - w^*_j|`, router
    :math:`\\sum_j\\sum_{A_j} w_i\\|\\Delta\\beta_{1ij}\\|`, experts
    :math:`\\sum_j\\sum_{A_j} w_i\\|\\Delta\\eta_{ij}\\|` and
    :math:`\\sum_j\\sum_{A_j} w_i\\max_x|h(x,\\eta_i)-h(x,\\eta^*_j)|`.

    See Also
    --------
    moetheory.estimation.voronoi.canonical_form : the identifiable representative.
    moetheory.estimation.experiment.loss_record : the same groups in the dense experiment.

    Examples
    --------
    >>> G = MixingMeasure.from_vector(true_variant("misspecified"), 2, 2)
    >>> x = np.zeros((3, 2)) + 0.5
    >>> group_losses(G, G, "perturbed", x)["voronoi_l1"]
    0.0
    """
    canon = canonical_form(estimate, router, tau1)
    star = canonical_form(target, router, tau1)
    h = expert_outputs(estimate.eta[None], x_eval[None], "tanh")[0]
    hs = expert_outputs(target.eta[None], x_eval[None], "tanh")[0]
    mass, beta1, expert, sup = cell_group_losses(canon, star, h, hs)
    return {
        "voronoi_l1": voronoi_loss(canon, star, r=1),
        "mass_l1": mass,
        "beta1_l1": beta1,
        "expert_l1": expert,
        "expert_sup": sup,
    }


def _scores(theta: np.ndarray, k: int, router: Router, x: np.ndarray) -> np.ndarray:
    """The gate scores ``u_i(x) = s(x, beta1_i) + beta0_i`` of ``k`` atoms in ``d = 2``,
    shape (m, k)."""
    b0, b1 = theta[:k], theta[k : 3 * k].reshape(k, 2)
    c, _ = router.scale(b1)
    return np.einsum("nd,kd->nk", router.token_features(x), b1 * c[:, None]) + b0


def _top1_losses(theta, theta_star, x_eval, design, router) -> dict[str, float]:
    """Top-1 losses of one fit; experts as functions (theta stores relu2 experts)."""
    k, rt = design.k, design.router(router)
    xe = x_eval[None]
    pair = np.stack([theta, theta_star])
    u = [variant_model(t[None], xe, k, rt, "relu2", top_k=1) for t in pair]
    reg = float(np.sqrt(np.mean((u[0] - u[1]) ** 2)))

    i_hat = np.argmax(_scores(theta, k, rt, x_eval), axis=1)
    i_star = np.argmax(_scores(theta_star, k, rt, x_eval), axis=1)
    h = expert_outputs(theta[3 * k :].reshape(1, k, -1), xe, "relu2")[0]
    hs = expert_outputs(theta_star[3 * k :].reshape(1, k, -1), xe, "relu2")[0]
    best: tuple[float, float] | None = None
    for perm in itertools.permutations(range(k)):
        p = np.array(perm)  # estimated atom p[j] plays true atom j
        routing = float(np.mean(p[i_star] != i_hat))
        expert = sum(float(np.sqrt(np.mean(np.where(i_star == j, h[p[j]] - hs[j], 0.0) ** 2)))
                     for j in range(k))
        if best is None or (routing, expert) < best:
            best = (routing, expert)
    assert best is not None
    return {"regression_l2": reg, "routing": best[0], "expert_l2": best[1]}


def _losses(theta, t_star: np.ndarray, x_eval, design, router) -> dict[str, float]:
    if design.setting == "top1":
        return _top1_losses(theta, t_star, x_eval, design, router)
    est = MixingMeasure.from_vector(theta, design.k, 2)
    target = MixingMeasure.from_vector(t_star, design.k, 2)
    rt = design.router(router)
    f = variant_model(np.stack([theta, t_star]), np.stack([x_eval, x_eval]),
                      design.k, rt, "tanh", top_k=design.top_k)
    out = group_losses(est, target, router, x_eval, design.tau1)
    out["regression_l2"] = float(np.sqrt(np.mean((f[0] - f[1]) ** 2)))
    if design.setting == "topk":
        assert design.top_k is not None
        out["sparse_l2"] = sparse_voronoi_loss(
            canonical_form(est, router, design.tau1), canonical_form(target, router, design.tau1),
            design.top_k,
        )
    return out


def score_spread(setting: str, router: Router, x_eval: np.ndarray) -> float:
    """Standard deviation of the true score difference ``u_1 - u_2`` over ``x_eval``.

    Parameters
    ----------
    setting : {"top1", "topk", "misspecified"}
        The setting (its true atoms are :func:`true_variant`'s).
    router : Router
        The router.
    x_eval : ndarray of shape (m, 2)
        Inputs.

    Returns
    -------
    float
        The scale of the annealing schedules (:meth:`VariantDesign.stages`), so that a
        relative temperature has the same meaning for every router.

    Notes
    -----
    With the true scores :math:`u_i(x) = s(x, \\beta^*_{1i}) + \\beta^*_{0i}`, the spread is
    :math:`\\sqrt{\\operatorname{mean}_x (D(x) - \\bar D)^2}` with :math:`D = u_1 - u_2`.

    See Also
    --------
    VariantDesign.stages : the schedules it scales.

    Examples
    --------
    >>> x = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> round(score_spread("topk", Router("linear"), x), 12)
    0.75
    """
    u = _scores(true_variant(setting), _true_k(setting), router, x_eval)
    diff = u[:, 0] - u[:, 1]
    return float(np.sqrt(np.mean((diff - np.mean(diff)) ** 2)))


def best_fits(
    x: np.ndarray,
    y: np.ndarray,
    starts: np.ndarray,
    k: int,
    router: Router,
    family: str,
    stages: tuple[Stage, ...],
    tol: float,
    at_target: np.ndarray,
    sigma: float,
    local_stages: tuple[Stage, ...] = (),
    local_from: tuple[int, ...] = (),
    polish: bool = False,
) -> list[tuple[np.ndarray, dict[str, Any]]]:
    """Fit every replicate from each of its starts and keep the lowest objective.

    Parameters
    ----------
    x : ndarray of shape (R, n, 2)
        Inputs of the ``R`` replicates.
    y : ndarray of shape (R, n)
        Responses.
    starts : ndarray of shape (R * S, P)
        ``S`` starts per replicate, replicate-major.
    k : int
        Atoms fitted.
    router : Router
        Router of the fitted model.
    family : {"tanh", "relu2"}
        Expert family.
    stages : tuple of Stage
        The schedule; the last stage runs to the rule
        (:func:`~moetheory.estimation.variants.fit_to_rule`).
    tol : float
        The stopping rule's tolerance.
    at_target : ndarray of shape (R,)
        The target's objective on each replicate's data.
    sigma : float
        Noise standard deviation (the shortfall slack is :math:`\\sigma^2/n`).
    local_stages : tuple of Stage
        The local path (:meth:`VariantDesign.local_stages`; empty: none).
    local_from : tuple of int
        Which of each replicate's ``S`` starts are also fitted along ``local_stages``, in
        the replicates whose winner along ``stages`` falls short of the target's objective.
    polish : bool
        Whether a winner still short is polished by gating steps on the last stage's own
        objective (:func:`~moetheory.estimation.variants.polish_gate`).

    Returns
    -------
    list of (ndarray, dict)
        Per replicate the winning parameters and its record: ``n``, ``rep``, ``objective``,
        ``objective_at_target``, ``shortfall``, ``converged``, ``iterations`` (last stage),
        ``start`` (index of the winning start: ``S + j`` for the local path from
        ``local_from[j]``), ``retried`` (whether the local path ran: the schedule's winner
        fell short), ``local`` (whether the local path won) and ``polished`` (whether the
        winner, still short, went through :func:`~moetheory.estimation.variants.polish_gate`;
        its result is kept where its objective is lower).

    Notes
    -----
    The least squares estimate's objective is at most the target's (below it by about
    :math:`\\sigma^2 P/n`): a winner above it by more than one noise degree of freedom,
    :math:`\\sigma^2/n`, is an optimiser *shortfall*. Ties go to the first start. A
    shortfall is certified by the objectives alone, so it triggers a restart: the local
    path from ``local_from`` (both paths end with the same last stage, so their
    objectives are those of one estimator), then, for a winner still short, gating steps
    on that objective (``polish``).

    See Also
    --------
    moetheory.estimation.variants.fit_to_rule : the fit.
    run_variant, moetheory.estimation.overspecified.run_overspecified : its two callers.

    Examples
    --------
    >>> t = true_variant("topk")
    >>> x = np.random.default_rng(0).uniform(-2, 2, (2, 40, 2))
    >>> y = variant_model(np.tile(t, (2, 1)), x, 3, Router("perturbed"), top_k=2)
    >>> out = best_fits(x, y, np.tile(t, (2, 1)), 3, Router("perturbed"), "tanh",
    ...                 (Stage(1.0, 2, 5),), 1e-9, np.zeros(2), 0.1)
    >>> [(rec["rep"], rec["shortfall"]) for _, rec in out]
    [(0, False), (1, False)]
    """
    reps = x.shape[0]
    per = starts.shape[0] // reps
    n = x.shape[1]
    fit, conv, ran = fit_to_rule(np.repeat(x, per, axis=0), np.repeat(y, per, axis=0), starts,
                                 k, router, family, stages, tol)
    theta, obj_all = fit.theta.reshape(reps, per, -1), fit.objective.reshape(reps, per)
    conv, ran = conv.reshape(reps, per), ran.reshape(reps, per)
    bar = at_target + sigma**2 / n  # above it: a shortfall
    retried = np.zeros(reps, dtype=bool)
    if local_stages and local_from:
        # the local path runs only where the schedule's winner falls short of the target's
        # objective: a failure of the optimiser that the objective itself certifies
        retried = obj_all.min(axis=1) > bar
        idx, m = np.flatnonzero(retried), len(local_from)
        loc = np.full((reps, m), np.inf)
        loc_theta = np.zeros((reps, m, theta.shape[2]))
        loc_conv, loc_ran = np.zeros((reps, m), dtype=bool), np.zeros((reps, m), dtype=int)
        if idx.size:
            loc_starts = starts.reshape(reps, per, -1)[idx][:, list(local_from)]
            lf, lc, lr = fit_to_rule(np.repeat(x[idx], m, axis=0), np.repeat(y[idx], m, axis=0),
                                     loc_starts.reshape(idx.size * m, -1), k, router, family,
                                     local_stages, tol)
            loc[idx] = lf.objective.reshape(idx.size, m)
            loc_theta[idx] = lf.theta.reshape(idx.size, m, -1)
            loc_conv[idx], loc_ran[idx] = lc.reshape(idx.size, m), lr.reshape(idx.size, m)
        theta = np.concatenate([theta, loc_theta], axis=1)
        obj_all = np.concatenate([obj_all, loc], axis=1)
        conv = np.concatenate([conv, loc_conv], axis=1)
        ran = np.concatenate([ran, loc_ran], axis=1)
    pick = np.argmin(obj_all, axis=1)
    win = np.arange(reps)
    w_theta, w_obj = theta[win, pick], obj_all[win, pick]
    w_conv, w_ran = conv[win, pick], ran[win, pick]
    polished = np.zeros(reps, dtype=bool)
    if polish:
        # winners still short: gating steps on the hard objective itself (polish_gate)
        idx = np.flatnonzero(w_obj > bar)
        if idx.size:
            pf, pc, pr = polish_gate(x[idx], y[idx], w_theta[idx], k, router, family,
                                     stages[-1], tol)
            better = pf.objective < w_obj[idx]
            j = idx[better]
            w_theta[j], w_obj[j] = pf.theta[better], pf.objective[better]
            w_conv[j], w_ran[j] = pc[better], pr[better]
            polished[idx] = True
    out = []
    for rep in range(reps):
        obj = float(w_obj[rep])
        out.append((w_theta[rep], {
            "n": n, "rep": rep, "objective": obj,
            "objective_at_target": float(at_target[rep]),
            "shortfall": bool(obj > bar[rep]),
            "converged": bool(w_conv[rep]), "iterations": int(w_ran[rep]),
            "start": int(pick[rep]), "local": bool(pick[rep] >= per),
            "retried": bool(retried[rep]), "polished": bool(polished[rep]),
        }))
    return out


def run_variant(design: VariantDesign, seed: int, router: str,
                stop: Callable[[list[dict[str, Any]]], bool] | None = None) -> dict[str, Any]:
    """Fit every ``(n, replicate)`` of one router and return the losses.

    Parameters
    ----------
    design : VariantDesign
        The experiment.
    seed : int
        Seed; replicate ``rep`` at size ``n`` draws from
        ``default_rng([seed, setting, router, n, rep])``.
    router : str
        One of ``design.routers``.
    stop : callable, optional
        Futility: ``stop(cell)`` is asked after each size with that size's records;
        ``True`` leaves the larger sizes unfitted (their records are absent).

    Returns
    -------
    dict
        ``records`` (one dict of losses per fit, with ``n``, ``rep`` and the fields of
        :func:`best_fits`: objective, shortfall, convergence), ``target`` (the
        target's parameters) and, for the misspecified setting, ``reference`` (objective,
        gradient norm and grid of the reference fit).

    Raises
    ------
    ValueError
        If ``router`` is not in the design.

    Notes
    -----
    Per ``n`` all replicates and starts are fitted in one :func:`best_fits` call (the last
    stage to the stopping rule, ``converged`` and ``iterations`` in the record); per
    replicate the start with the lowest objective wins. ``shortfall`` marks a winner whose
    objective exceeds the target's on the same data by more than :math:`\\sigma^2/n` (the
    least squares estimate's is below the target's).

    See Also
    --------
    VariantDesign : the experiment.
    misspecified_target : the misspecified target.

    Examples
    --------
    >>> d = VariantDesign("topk", (30, 60), 2, 0, 1, routers=("perturbed",))
    >>> out = run_variant(d, 0, "perturbed")
    >>> len(out["records"]), out["records"][0]["converged"], sorted(out["records"][0])[:3]
    (4, True, ['beta1_l1', 'converged', 'expert_l1'])
    """
    if router not in design.routers:
        raise ValueError(f"router must be one of {design.routers}, got {router!r}")
    out: dict[str, Any] = {}
    if design.setting == "misspecified":
        ref = misspecified_target(design, router)
        t_star = ref.pop("measure").to_vector()
        out["reference"] = ref
    else:
        t_star = true_variant(design.setting)
    out["target"] = t_star.tolist()
    sid, rid = SETTINGS.index(design.setting), design.routers.index(router)
    w = design.x_half_width
    x_eval = np.random.default_rng([seed, sid, 999]).uniform(-w, w, (design.n_eval, 2))
    rt = design.router(router)
    spread = 1.0 if design.setting == "misspecified" else score_spread(design.setting, rt, x_eval)
    stages = design.stages(spread)
    final = stages[-1]

    def draw(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        xs, starts = [], []
        for rep in range(design.replicates):
            rng = np.random.default_rng([seed, sid, rid, n, rep])
            xs.append(rng.uniform(-w, w, (n, 2)))
            starts.append(t_star)
            noisy = t_star + design.start_noise * rng.standard_normal(t_star.size)
            if design.start_noise > 0:
                starts.append(noisy)
            starts += [rng.standard_normal(t_star.size) for _ in range(design.restarts)]
        x_all = np.stack(xs)
        noise = np.stack([
            np.random.default_rng([seed, sid, rid, n, rep, 1]).standard_normal(n)
            for rep in range(design.replicates)
        ])
        y = _q(design, router, x_all) + design.sigma * noise
        f_target = variant_model(np.tile(t_star, (design.replicates, 1)), x_all, design.k, rt,
                                 design.family, temperature=final.temperature,
                                 top_k=final.top_k)
        at_target = np.mean((f_target - y) ** 2, axis=1)
        return x_all, y, np.stack(starts), at_target

    def scored(theta: np.ndarray, rec: dict[str, Any]) -> dict[str, Any]:
        return {**rec, **_losses(theta, t_star, x_eval, design, router)}

    # where the winner falls short, the target start (index 0) runs the local path
    out["records"] = rates_records(design, rt, stages, draw, scored, stop,
                                   design.local_stages(spread), (0,),
                                   design.polish and design.top_k is not None)
    return out


def rates_records(
    design: Any,
    router: Router,
    stages: tuple[Stage, ...],
    draw: Callable[[int], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    scored: Callable[[np.ndarray, dict[str, Any]], dict[str, Any]],
    stop: Callable[[list[dict[str, Any]]], bool] | None = None,
    local_stages: tuple[Stage, ...] = (),
    local_from: tuple[int, ...] = (),
    polish: bool = False,
) -> list[dict[str, Any]]:
    """The records of a rates design, size by size: draw, fit (:func:`best_fits`), score.

    Parameters
    ----------
    design : VariantDesign or moetheory.estimation.overspecified.OverDesign
        The design: its ``n_grid``, ``k``, ``family``, ``lm_tol`` and ``sigma``.
    router : Router
        Router of the fitted model.
    stages : tuple of Stage
        The schedule (:func:`best_fits`).
    draw : callable
        ``draw(n)``: inputs ``(R, n, 2)``, responses ``(R, n)``, starts ``(R * S, P)`` and the
        target's objective ``(R,)`` at size ``n``.
    scored : callable
        ``scored(theta, record)``: the record of a winning fit with its losses.
    stop : callable, optional
        Futility: ``stop(cell)`` is asked after each size with that size's records;
        ``True`` leaves the larger sizes unfitted.
    local_stages, local_from, polish
        The local path, the starts it is run from and the gating polish
        (:func:`best_fits`).

    Returns
    -------
    list of dict
        The scored records, size by size, replicate by replicate.

    Notes
    -----
    The driver of :func:`run_variant` and
    :func:`~moetheory.estimation.overspecified.run_overspecified`; what differs between
    them (data, starts, losses) is in ``draw`` and ``scored``.

    See Also
    --------
    best_fits : the fits of one size.

    Examples
    --------
    >>> d = VariantDesign("topk", (30, 60), 2, 0, 1)
    >>> t = true_variant("topk"); rt = d.router("linear")
    >>> def draw(n):
    ...     x = np.random.default_rng(n).uniform(-2, 2, (2, n, 2))
    ...     y = variant_model(np.tile(t, (2, 1)), x, 3, rt, top_k=2)
    ...     return x, y, np.tile(t, (2, 1)), np.zeros(2)
    >>> recs = rates_records(d, rt, (Stage(1.0, 2, 3),), draw, lambda theta, rec: rec)
    >>> [(r["n"], r["rep"]) for r in recs]
    [(30, 0), (30, 1), (60, 0), (60, 1)]
    """
    records: list[dict[str, Any]] = []
    for n in design.n_grid:
        x_all, y, starts, at_target = draw(n)
        cell = [scored(theta, rec)
                for theta, rec in best_fits(x_all, y, starts, design.k, router, design.family,
                                            stages, design.lm_tol, at_target, design.sigma,
                                            local_stages, local_from, polish)]
        records += cell
        if stop is not None and stop(cell):
            break
    return records
