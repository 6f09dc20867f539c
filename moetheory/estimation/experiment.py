r"""The estimation-rate experiment: least-squares fits of the three routers against :math:`n`.

Design (see :func:`rates_design`): inputs :math:`X \sim \mathrm{Uniform}([-2, 2]^2)`,
responses :math:`Y = f_{G^*}(X) + \varepsilon` with :math:`\varepsilon \sim N(0, \sigma^2)`,
``tanh`` experts by default (strongly identifiable according to seed 002; ``relu``, ``gelu``,
``poly2`` and ``linear`` by ``expert``, see :data:`~moetheory.estimation.models.EXPERTS`),
:math:`k^* = 2` true experts, fitted with :math:`k = 2` (exact-specified) and :math:`k = 3`
(over-specified) atoms, for the linear, cosine and perturbed cosine routers
(:math:`\tau_1 = \tau_2 = 1`) with the same true parameters. Each fit is the least-squares
estimate of eq. (3) from one start in a neighbourhood of the truth (true atoms plus
:math:`N(0, s^2)` noise, :math:`s` = ``start_noise``; for :math:`k = 3` the first true atom is
split in two with half the mass each) and ``restarts`` standard-normal starts; the lowest
objective wins. The fits of all replicates and starts of one ``(router, k, n)`` cell run
together as one batched, deterministic Levenberg–Marquardt
(:mod:`moetheory.estimation.batched`, ``method="lm"``, the default; its results are
bit-identical on every SIMD/BLAS path); ``method="bfgs"`` keeps the previous
one-fit-at-a-time SciPy BFGS path for comparison (``benchmarks/bench_estimation.py``).

Errors are measured only in what the regression function identifies: both measures are put in
:func:`~moetheory.estimation.voronoi.canonical_form` (masses normalised to sum 1; cosine:
:math:`\beta_1 / \|\beta_1\|`; linear: :math:`\beta_1` centred; perturbed:
:math:`\beta_1 / (\|\beta_1\| + \tau_1)` centred), then compared with the Voronoi losses. The
raw loss ``voronoi_l1_raw`` (masses normalised, :math:`\beta_1` as fitted, i.e. the paper's
:math:`\mathcal{L}_{1,1}` literally) is recorded too. The rate is the least-squares slope of
the log median loss against :math:`\log n`, with a percentile bootstrap interval that
resamples the replicates within each :math:`n`.
"""

from __future__ import annotations

import copy
import csv
import itertools
import math
import textwrap
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from moetheory.engine.shared import BUSY, shared
from moetheory.estimation.batched import fit_batch
from moetheory.estimation.fitting import fit_least_squares
from moetheory.estimation.models import (
    MixingMeasure,
    Router,
    expert_output,
    regression_function,
)
from moetheory.estimation.parameter_space import GROUPS, ParameterSpace
from moetheory.estimation.slopes import median_pair_cdf, median_table, slope_bootstrap
from moetheory.estimation.voronoi import (
    canonical_form,
    cell_group_losses,
    normalise_masses,
    voronoi_loss,
    voronoi_loss_2,
)

__all__ = [
    "EVEN_EXPERTS",
    "LM_ITERATIONS",
    "LM_TOL",
    "LOSSES",
    "QN_ITERATIONS",
    "TASK_SAMPLES",
    "RatesDesign",
    "fit_cell",
    "fit_record",
    "loss_matrix",
    "loss_record",
    "median_pair_cdf",
    "median_table",
    "rates_design",
    "reproduce_rates",
    "run_rates",
    "slope_bootstrap",
    "true_measure",
]

#: Loss columns of a record, in CSV order.
LOSSES: tuple[str, ...] = (
    "voronoi_l1",
    "voronoi_l2",
    "expert_l1",
    "voronoi_l1_raw",
    "regression_l2",
    "mass_l1",
    "beta1_l1",
    "expert_sup",
)


#: Stopping rule of the rates fits (``RatesDesign.lm_tol``): Gauss–Newton decrement at most
#: this times the objective. The cap-raising comparison of ``benchmarks/bench_estimation.py``
#: (section 5; also tests/test_estimation.py) shows that in the cells whose
#: fixed-40-iteration medians moved most, the median losses of the fits that meet this rule
#: agree to about 0.1% with fits run at a :math:`10^4` times smaller tolerance and a 10 times larger
#: cap; 1e-8 was not enough (a cosine cell's median L11 moved 11%).
LM_TOL = 1e-9

#: LM iterations of a rates fit (both profiles) before the quasi-Newton phase takes the fits
#: the rule has not stopped: most fits stop within it; the rest are in the curved valleys of
#: weakly identified atoms, where the Gauss–Newton model misses the residual curvature and LM
#: gains little per step (:func:`~moetheory.estimation._lm.qn_iterate`).
LM_ITERATIONS = 200

#: Cap of the quasi-Newton phase of a rates fit, per profile; a fit that reaches it is not
#: converged. The quick profile's cap bounds its CPU time: the fits that need more (most of
#: them with :math:`(a^\top x + b)^2` experts, whose mixtures with the perturbed router's smooth
#: gate
#: are nearly unidentifiable: long, flat valleys; and ReLU experts, whose objective has a kink
#: wherever a hinge crosses an input) are counted at the cap: their losses are unknown to the
#: readings (every interval covers them), and a cell with half of its fits there is undecided.
QN_ITERATIONS: dict[str, int] = {"quick": 200, "full": 2000}

#: Samples (``n`` times replicates) of one task when :func:`run_rates` runs on an executor or
#: a cluster: a larger cell is split into tasks of its replicates, so that the workers share a
#: cell at :math:`n = 10^5` instead of one of them fitting it alone.
TASK_SAMPLES = 200_000


def true_measure() -> MixingMeasure:
    r"""The true mixing measure :math:`G^*` of the experiment.

    It has :math:`k^* = 2` atoms in dimension :math:`d = 2`, with :math:`\beta^*_{0,2} = 0` by
    (A.3).

    Returns
    -------
    MixingMeasure
        ``beta0 = (0.5, 0)``, ``beta1 = ((1, 0.5), (-0.5, 1))``,
        ``eta = ((1, -0.5, 0.5), (-0.5, 1, -0.5))``.

    Notes
    -----
    Condition (A.3) of seed 002 fixes the last gate bias, :math:`\beta^*_{0k_*} = 0`; the
    two atoms have distinct router directions and experts, so :math:`G_*` is identifiable up
    to the router's own invariances.

    See Also
    --------
    rates_design : the design that fits it.

    Examples
    --------
    >>> true_measure().k
    2
    """
    return MixingMeasure(
        beta0=np.array([0.5, 0.0]),
        beta1=np.array([[1.0, 0.5], [-0.5, 1.0]]),
        eta=np.array([[1.0, -0.5, 0.5], [-0.5, 1.0, -0.5]]),
    )


@dataclass(frozen=True)
class RatesDesign:
    """Everything that defines the rates experiment (recorded in the evidence).

    Parameters
    ----------
    n_grid : tuple of int
        Sample sizes (at least 2, each at least 1).
    replicates : int
        Replicates per sample size (at least 2).
    restarts : int
        Random starts per replicate besides the start near :math:`G^*` (non-negative).
    routers : tuple of str
        Routers fitted.
    ks : tuple of int
        Numbers of fitted atoms (each at least :math:`k^* = 2`).
    sigma : float
        Noise standard deviation.
    tau1, tau2 : float
        Perturbations of the perturbed cosine router (non-negative).
    x_half_width : float
        Inputs uniform on :math:`[-w, w]^2`, :math:`w` = ``x_half_width``.
    expert : str
        Expert family.
    start_noise : float
        Standard deviation of the perturbation of the start near ``G*``.
    bound : float
        The bound :math:`B` of the compact parameter space of (A.1) the LM fits minimise over
        (:class:`~moetheory.estimation.parameter_space.ParameterSpace`: on the gauge slice,
        :math:`|\\beta_{0i}| \\le B`, router coordinates within :math:`B` (perturbed:
        :math:`B/((B+\\tau_1)\\sqrt 2)` for :math:`v`), :math:`|\\eta_{ij}| \\le B`); the BFGS
        path's open box ``|theta_j| < bound``.
    gtol, max_iter : float, int
        Stopping rule of the BFGS path (``method="bfgs"`` only).
    n_eval : int
        Evaluation inputs of the :math:`L^2(\\mu)` and sup losses.
    method : {"lm", "bfgs"}
        Batched Levenberg–Marquardt (default) or the per-fit SciPy BFGS path.
    lm_iterations : int
        Cap on the LM iterations of a fit (at least 1).
    qn_iterations : int
        Cap on the quasi-Newton (projected BFGS) iterations that continue a fit the LM cap
        left (non-negative; :func:`~moetheory.estimation._lm.qn_iterate`): the same parameter space
        and stopping rule. ``0``: LM only.
    lm_tol : float
        Stopping rule of the LM fits (:func:`~moetheory.estimation.batched.fit_batch`): a fit
        stops when the Gauss–Newton decrement (the decrease a full step predicts) is at most
        ``lm_tol`` times the objective, or when no descent is left; one that reaches
        both caps (``lm_iterations``, then ``qn_iterations``) first is recorded as not
        converged. ``0`` runs every fit for exactly ``lm_iterations``
        (the fixed-iteration estimator of earlier versions).
    true : dict
        The true measure, for the record.

    Raises
    ------
    ValueError
        On a grid of fewer than 2 sizes, ``replicates < 2``, ``restarts < 0``, a ``k < 2``,
        an unknown ``method``, a negative ``tau``, ``lm_iterations < 1``,
        ``qn_iterations < 0`` or ``lm_tol`` outside ``[0, 1)``.

    Notes
    -----
    Data: :math:`Y = f_{G_*}(X) + \\varepsilon`, :math:`X \\sim U([-w, w]^2)`,
    :math:`\\varepsilon \\sim N(0, \\sigma^2)`; the estimate is the least-squares estimate
    (3) of seed 002 over the box (A.1).

    See Also
    --------
    rates_design : the designs of the profiles.

    Examples
    --------
    >>> RatesDesign(n_grid=(100, 1000), replicates=5, restarts=1).router("perturbed").tau1
    1.0
    >>> RatesDesign(n_grid=(100,), replicates=5, restarts=1)
    Traceback (most recent call last):
    ...
    ValueError: n_grid must hold at least 2 sizes n >= 1, got (100,)
    """

    n_grid: tuple[int, ...]
    replicates: int
    restarts: int
    routers: tuple[str, ...] = ("linear", "cosine", "perturbed")
    ks: tuple[int, ...] = (2, 3)
    sigma: float = 0.1
    tau1: float = 1.0
    tau2: float = 1.0
    x_half_width: float = 2.0
    expert: str = "tanh"
    start_noise: float = 0.3
    bound: float = 5.0
    gtol: float = 1e-8
    max_iter: int = 300
    n_eval: int = 2000
    method: str = "lm"
    lm_iterations: int = 2000
    lm_tol: float = LM_TOL
    qn_iterations: int = 0
    true: dict[str, Any] = field(
        default_factory=lambda: {
            "beta0": true_measure().beta0.tolist(),
            "beta1": true_measure().beta1.tolist(),
            "eta": true_measure().eta.tolist(),
        }
    )

    def __post_init__(self) -> None:
        if len(self.n_grid) < 2 or min(self.n_grid) < 1:
            raise ValueError(f"n_grid must hold at least 2 sizes n >= 1, got {self.n_grid}")
        if self.replicates < 2:
            raise ValueError(f"replicates must be >= 2, got {self.replicates}")
        if self.restarts < 0:
            raise ValueError(f"restarts must be >= 0, got {self.restarts}")
        if min(self.ks) < 2:
            raise ValueError(f"ks must be >= k* = 2 (k < k* cannot fit G*), got {self.ks}")
        if self.method not in ("lm", "bfgs"):
            raise ValueError(f"method must be 'lm' or 'bfgs', got {self.method!r}")
        if self.tau1 < 0 or self.tau2 < 0:
            raise ValueError(f"tau1, tau2 must be >= 0, got {self.tau1}, {self.tau2}")
        if not isinstance(self.lm_iterations, int) or self.lm_iterations < 1:
            raise ValueError(f"lm_iterations must be an integer >= 1, got {self.lm_iterations!r}")
        if not 0 <= self.lm_tol < 1:
            raise ValueError(f"lm_tol must lie in [0, 1), got {self.lm_tol!r}")
        if not isinstance(self.qn_iterations, int) or self.qn_iterations < 0:
            raise ValueError(f"qn_iterations must be an integer >= 0, got {self.qn_iterations!r}")

    def router(self, kind: str) -> Router:
        """The :class:`Router` of this design of the given kind."""
        return Router(kind, self.tau1, self.tau2)

    def to_dict(self) -> dict[str, Any]:
        """The design as JSON-able evidence: the settings the fits use.

        Returns
        -------
        dict
            Every field except those of the other method: without ``gtol`` and ``max_iter``
            (the BFGS path's) when ``method == "lm"``, without ``lm_iterations``,
            ``qn_iterations`` and ``lm_tol`` when ``method == "bfgs"``; with
            ``parameter_space`` (the bounds of the LM fits, per router) for ``"lm"``.

        Examples
        --------
        >>> d = RatesDesign(n_grid=(100, 1000), replicates=5, restarts=1).to_dict()
        >>> space = d["parameter_space"]["perturbed"]
        >>> "max_iter" in d, d["lm_tol"], round(space["router_bound"], 4)
        (False, 1e-09, 0.5893)
        """
        out = asdict(self)
        unused = ("gtol", "max_iter") if self.method == "lm" else (
            "lm_iterations", "qn_iterations", "lm_tol")
        for name in unused:
            del out[name]
        if self.method == "lm":
            out["parameter_space"] = {
                r: _space_text(ParameterSpace(3, 2, self.router(r), self.bound))
                for r in self.routers}
        return out


def _space_text(space: ParameterSpace) -> dict[str, Any]:
    """The bounds of a parameter space as evidence."""
    coords = ("beta1 / ||beta1||" if space.normalised else
              "v = beta1 / (||beta1|| + tau1), centred on its midrange" if space.in_v else
              "beta1, centred on its midrange")
    return {"beta0_bound": space.bound, "router_coordinates": coords,
            "router_bound": None if space.normalised else space.router_bound,
            "eta_bound": space.bound}


def rates_design(profile: str = "quick", replicates: int | None = None) -> RatesDesign:
    """The design of the rates experiment for a profile.

    Parameters
    ----------
    profile : {"quick", "full"}
        ``quick``: ``n`` in 5 log-spaced sizes from 100 to 1600, 13 replicates; ``full``: 6
        sizes from 50 to :math:`10^4`, 17 replicates. Both: the stopping rule :data:`LM_TOL`, LM
        capped at 200 iterations and then projected BFGS at 200 (quick) or 2000 (full)
        (:data:`QN_ITERATIONS`), one start near ``G*`` and one random start per replicate.
    replicates : int, optional
        Replicates per ``n`` instead of the profile's (the checks add replicates in looks,
        :data:`proofs_checks.nguyen2025cosine._dense_rates.RATES_BUDGET`; the defaults are their
        first look).

    Returns
    -------
    RatesDesign

    Raises
    ------
    ValueError
        On an unknown profile or ``replicates < 2``.

    Notes
    -----
    The replicate counts are odd so that the median of a resample is one order statistic
    and the exact bootstrap law of the slope (:func:`slope_bootstrap` with ``exact=True``)
    has a small support.

    See Also
    --------
    RatesDesign, run_rates

    Examples
    --------
    >>> rates_design("quick").n_grid
    (100, 200, 400, 800, 1600)
    >>> rates_design("slow")
    Traceback (most recent call last):
    ...
    ValueError: profile must be 'quick' or 'full', got 'slow'
    """
    if profile == "quick":
        grid = tuple(int(v) for v in np.rint(np.logspace(np.log10(100), np.log10(1600), 5)))
        return RatesDesign(n_grid=grid, replicates=replicates or 13, restarts=1,
                           lm_iterations=LM_ITERATIONS, qn_iterations=QN_ITERATIONS[profile])
    if profile == "full":
        grid = tuple(int(v) for v in np.rint(np.logspace(np.log10(50), np.log10(10000), 6)))
        return RatesDesign(n_grid=grid, replicates=replicates or 17, restarts=1, max_iter=500,
                           lm_iterations=LM_ITERATIONS, qn_iterations=QN_ITERATIONS[profile])
    raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")


def _start_near_truth(G: MixingMeasure, k: int, rng: np.random.Generator, noise: float):
    b0, b1, eta = G.beta0.copy(), G.beta1.copy(), G.eta.copy()
    while b0.size < k:
        b0 = np.concatenate([[b0[0] - math.log(2.0)] * 2, b0[1:]])
        b1 = np.concatenate([b1[:1], b1], axis=0)
        eta = np.concatenate([eta[:1], eta], axis=0)
    start = MixingMeasure(b0, b1, eta)
    theta = start.to_vector() + noise * rng.standard_normal(start.to_vector().size)
    return MixingMeasure.from_vector(theta, k, G.d)


def loss_record(
    estimate: MixingMeasure,
    G_star: MixingMeasure,
    router: str,
    x_eval: np.ndarray,
    design: RatesDesign,
) -> dict[str, float]:
    """All losses of one estimate: Voronoi losses on canonical forms, raw loss, :math:`L^2` error.

    ``expert_l1`` is the expert part of :math:`\\mathcal{L}_{1,1}`:
    :math:`\\sum_j \\sum_{i \\in A_j} e^{\\beta_{0i}} \\|\\eta_i - \\eta^*_j\\|` (cells of the
    canonical forms); ``mass_l1`` and ``beta1_l1`` are its mass (:math:`\\beta_0`) and router
    (:math:`\\beta_1`) parts; ``expert_sup`` measures the experts as functions,
    :math:`\\sum_j \\sum_{i \\in A_j} e^{\\beta_{0i}} \\max_x |h(x, \\eta_i) - h(x, \\eta^*_j)|`
    over the evaluation inputs (the "expert estimation" of seed 002).

    Parameters
    ----------
    estimate : MixingMeasure
        The fitted measure.
    G_star : MixingMeasure
        The true measure.
    router : str
        Router kind (decides the canonical form).
    x_eval : ndarray of shape (n_eval, 2)
        Evaluation inputs of the function losses.
    design : RatesDesign
        The design (expert family, ``tau1``).

    Returns
    -------
    dict of str to float
        One value per name of :data:`LOSSES`.

    Notes
    -----
    With the Voronoi cells :math:`A_j` of the canonical forms, the Voronoi loss of seed 002 is

    .. math::

        \\mathcal L_{1,1}(G, G_*) = \\sum_j \\Bigl|\\sum_{i \\in A_j} e^{\\beta_{0i}}
        - e^{\\beta^*_{0j}}\\Bigr| + \\sum_j \\sum_{i \\in A_j} e^{\\beta_{0i}}
        \\bigl(\\|\\Delta\\beta_{1ij}\\| + \\|\\Delta\\eta_{ij}\\|\\bigr).

    ``voronoi_l1`` takes it on identifiable coordinates; for an expert family even in its
    parameters (:data:`EVEN_EXPERTS`: :math:`(a^\\top x + b)^2`, where :math:`\\eta` and
    :math:`-\\eta` give the same expert) each fitted :math:`\\eta_i` is taken with the sign that
    puts its atom nearer to a
    true atom. ``voronoi_l1_raw`` uses :math:`\\beta_1` as fitted, which is not a function of
    :math:`f_G` (cosine: the norm of :math:`\\beta_1`; perturbed: a common shift of
    :math:`\\beta_1/(\\|\\beta_1\\|+\\tau_1)`) and need not tend to 0.

    See Also
    --------
    moetheory.estimation.voronoi.canonical_form, moetheory.estimation.voronoi.voronoi_loss

    Examples
    --------
    >>> d = rates_design("quick"); G = true_measure()
    >>> x = np.random.default_rng(0).uniform(-2, 2, (100, 2))
    >>> rec = loss_record(G, G, "cosine", x, d)
    >>> rec["voronoi_l1"], rec["regression_l2"]
    (0.0, 0.0)
    """
    canon_star = canonical_form(G_star, router, design.tau1)
    canon = _even_sign(canonical_form(estimate, router, design.tau1), canon_star, design.expert)
    raw_star = normalise_masses(G_star)
    raw = _even_sign(normalise_masses(estimate), raw_star, design.expert)
    rt = design.router(router)
    h_est = expert_output(estimate.eta, x_eval, design.expert)  # (n_eval, k)
    h_star = expert_output(G_star.eta, x_eval, design.expert)
    mass, beta1, expert, sup = cell_group_losses(canon, canon_star, h_est.T, h_star.T)
    diff = regression_function(estimate, x_eval, rt, design.expert) - regression_function(
        G_star, x_eval, rt, design.expert
    )
    return {
        "voronoi_l1": voronoi_loss(canon, canon_star, r=1),
        "voronoi_l2": voronoi_loss_2(canon, canon_star),
        "expert_l1": expert,
        "voronoi_l1_raw": voronoi_loss(raw, raw_star, r=1),
        "regression_l2": float(np.sqrt(np.mean(diff**2))),
        "mass_l1": mass,
        "beta1_l1": beta1,
        "expert_sup": sup,
    }


#: Expert families even in their parameters, :math:`h(x, -\eta) = h(x, \eta)`:
#: :math:`(a^\top x + b)^2`.
EVEN_EXPERTS: tuple[str, ...] = ("poly2",)


def _even_sign(G: MixingMeasure, G_star: MixingMeasure, expert: str) -> MixingMeasure:
    """``G`` with each ``eta_i`` of an even expert family (:data:`EVEN_EXPERTS`) replaced by
    whichever of ``eta_i``, ``-eta_i`` puts its atom ``(beta1_i, eta_i)`` nearer to an atom of
    ``G_star``: the sign is not identified, so the losses are taken on the quotient by it
    (any other family: ``G`` unchanged)."""
    if expert not in EVEN_EXPERTS:
        return G
    star = np.concatenate([G_star.beta1, G_star.eta], axis=1)

    def nearest(eta: np.ndarray) -> np.ndarray:
        atoms = np.concatenate([G.beta1, eta], axis=1)
        return np.linalg.norm(atoms[:, None, :] - star[None, :, :], axis=2).min(axis=1)

    flip = nearest(-G.eta) < nearest(G.eta)
    return MixingMeasure(G.beta0, G.beta1, np.where(flip[:, None], -G.eta, G.eta))


def fit_record(
    design: RatesDesign, router: str, k: int, n: int, rep: int, seed: int, x_eval: np.ndarray
) -> dict[str, Any]:
    """Draw one data set, fit it and return its losses (seeded by ``(seed, router, k, n, rep)``).

    Parameters
    ----------
    design : RatesDesign
        The design.
    router : str
        Router kind.
    k : int
        Atoms fitted (at least :math:`k^* = 2`).
    n : int
        Sample size (at least 1).
    rep : int
        Replicate index.
    seed : int
        Master seed.
    x_eval : ndarray of shape (n_eval, 2)
        Evaluation inputs.

    Returns
    -------
    dict
        ``router``, ``k``, ``n``, ``rep``, the :data:`LOSSES`, ``objective``, ``converged``
        (SciPy's success flag) and ``lm_iterations`` (BFGS iterations of the winner).

    Raises
    ------
    ValueError
        If ``n < 1`` or ``k < 2``.

    Notes
    -----
    One SciPy BFGS fit per start (:func:`~moetheory.estimation.fitting.fit_least_squares`):
    the path before the batched LM, kept for comparison (``method="bfgs"``).

    See Also
    --------
    fit_cell : all replicates of a cell at once, by batched LM.

    Examples
    --------
    >>> d = rates_design("quick"); x = np.zeros((1, 2)) + 0.5
    >>> rec = fit_record(d, "perturbed", 2, 50, 0, seed=1, x_eval=x)
    >>> rec["n"], rec["k"], rec["router"]
    (50, 2, 'perturbed')
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    G_star = true_measure()
    if k < G_star.k:
        raise ValueError(f"k must be >= k* = {G_star.k}, got {k}")
    x, y, rng = _draw(design, router, k, n, rep, seed)
    fit = fit_least_squares(
        x,
        y,
        k,
        design.router(router),
        rng,
        expert=design.expert,
        restarts=design.restarts,
        starts=[_start_near_truth(G_star, k, rng, design.start_noise)],
        bound=design.bound,
        gtol=design.gtol,
        max_iter=design.max_iter,
    )
    return _record(design, router, k, n, rep, fit.estimate, x_eval, fit.objective,
                   fit.converged, fit.iterations, "")


def _record(design: RatesDesign, router: str, k: int, n: int, rep: int,
            estimate: MixingMeasure, x_eval: np.ndarray, objective: Any, converged: Any,
            iterations: Any, at_bound: str) -> dict[str, Any]:
    """The record of one replicate's winning fit: its cell, its losses and how it ended."""
    record: dict[str, Any] = {"router": router, "k": k, "n": n, "rep": rep}
    record.update(loss_record(estimate, true_measure(), router, x_eval, design))
    record["objective"] = objective
    record["converged"] = bool(converged)
    record["lm_iterations"] = int(iterations)
    record["at_bound"] = at_bound
    return record


def _draw(design: RatesDesign, router: str, k: int, n: int, rep: int, seed: int
          ) -> tuple[np.ndarray, np.ndarray, np.random.Generator]:
    """Data of one replicate and its own seeded generator (which then draws the starts)."""
    G_star = true_measure()
    rng = np.random.default_rng([seed, design.routers.index(router), k, n, rep])
    rt = design.router(router)
    x = rng.uniform(-design.x_half_width, design.x_half_width, (n, G_star.d))
    y = regression_function(G_star, x, rt, design.expert) + design.sigma * rng.standard_normal(n)
    return x, y, rng


def _cell_data(design: RatesDesign, router: str, k: int, n: int, rep: int, seed: int):
    """Data and starting points of one replicate, from its own seeded generator."""
    G_star = true_measure()
    x, y, rng = _draw(design, router, k, n, rep, seed)
    starts = [_start_near_truth(G_star, k, rng, design.start_noise).to_vector()]
    starts += [rng.standard_normal(k * (2 * G_star.d + 2)) for _ in range(design.restarts)]
    return x, y, starts


def fit_cell(
    design: RatesDesign,
    router: str,
    k: int,
    n: int,
    seed: int,
    x_eval: np.ndarray,
    first_rep: int = 0,
) -> list[dict[str, Any]]:
    """All replicates of one ``(router, k, n)`` fitted together by batched LM.

    Every replicate draws its data and starts exactly as :func:`fit_record` does; the fits of
    all replicates and starts run as one :func:`~moetheory.estimation.batched.fit_batch`,
    and per replicate the start with the lowest objective wins.

    Parameters
    ----------
    design : RatesDesign
        The design (``design.replicates`` replicates are fitted).
    router : str
        Router kind.
    k : int
        Atoms fitted (at least :math:`k^* = 2`).
    n : int
        Sample size.
    seed : int
        Master seed.
    x_eval : ndarray of shape (n_eval, 2)
        Evaluation inputs.
    first_rep : int
        Index of the first replicate: the replicates from
        ``first_rep`` on, ``design.replicates`` of them (each seeded by its own index, so looks
        that add replicates
        give the same records as one run).

    Returns
    -------
    list of dict
        One record per replicate, as :func:`fit_record`, with ``converged`` (the winning
        fit stopped by the rule ``design.lm_tol``, not at the caps ``design.lm_iterations``
        and ``design.qn_iterations``), ``lm_iterations`` (the LM and BFGS iterations it
        ran), ``at_bound`` (the groups of the parameter space whose faces it ended on,
        joined by ``+``: ``beta0``, ``router``, ``eta``; empty inside) and ``hull_stop``
        (stopped by the rule's nonsmooth form).

    Raises
    ------
    ValueError
        If ``k < 2`` or ``first_rep < 0``.

    Notes
    -----
    The estimate is the least-squares estimate (3) of seed 002 over the compact parameter
    space of (A.1) (:class:`~moetheory.estimation.parameter_space.ParameterSpace`); the best
    of the starts approximates the global minimiser. A replicate is *converged* when its
    winning fit stopped by the rule (a Karush–Kuhn–Tucker point of the parameter space, on
    a face or inside); a winner at the caps describes the optimiser, not the estimator.

    See Also
    --------
    moetheory.estimation.batched.fit_batch, run_rates

    Examples
    --------
    >>> d = RatesDesign(n_grid=(30, 60), replicates=2, restarts=1, lm_iterations=20)
    >>> recs = fit_cell(d, "cosine", 2, 30, 0, np.full((1, 2), 0.5))
    >>> [r["rep"] for r in recs], recs[0]["n"]
    ([0, 1], 30)
    """
    G_star = true_measure()
    if k < G_star.k:
        raise ValueError(f"k must be >= k* = {G_star.k}, got {k}")
    if first_rep < 0:
        raise ValueError(f"first_rep must be >= 0, got {first_rep}")
    reps = range(first_rep, first_rep + design.replicates)
    cells = [_cell_data(design, router, k, n, rep, seed) for rep in reps]
    n_starts = 1 + design.restarts
    xs = np.stack([c[0] for c in cells for _ in range(n_starts)])
    ys = np.stack([c[1] for c in cells for _ in range(n_starts)])
    t0 = np.stack([s for c in cells for s in c[2]])
    fit = fit_batch(
        xs, ys, t0, k, design.router(router), expert=design.expert, bound=design.bound,
        iterations=design.lm_iterations, tol=design.lm_tol, qn_iterations=design.qn_iterations,
    )
    records = []
    for i, rep in enumerate(reps):
        objs = fit.objective[i * n_starts : (i + 1) * n_starts]
        best = i * n_starts + int(np.argmin(objs))
        record = _record(design, router, k, n, rep, fit.measure(best, k, G_star.d), x_eval,
                         float(fit.objective[best]), fit.converged[best], fit.iterations[best],
                         _faces(fit, best))
        record["hull_stop"] = fit.hull_stopped is not None and bool(fit.hull_stopped[best])
        records.append(record)
    return records


def _faces(fit: Any, index: int) -> str:
    """The parameter groups whose faces fit ``index`` of a :class:`~moetheory.estimation.
    batched.BatchFit` ended on, joined by ``+`` (empty inside the parameter space)."""
    return "+".join(g for g in GROUPS if bool(getattr(fit, f"at_bound_{g}")[index]))


def run_rates(
    design: RatesDesign,
    seed: int,
    configs: Iterable[tuple[str, int]] | None = None,
    progress: bool = False,
    *,
    executor: Executor | None = None,
    scheduler: str | None = None,
    map_tasks: Callable[[Callable[[Any], Any], list[Any]], list[Any]] | None = None,
    first_rep: int = 0,
    stop: Callable[[str, int, int, list[dict[str, Any]]], bool] | None = None,
) -> list[dict[str, Any]]:
    """Run the fits of ``configs`` (pairs ``(router, k)``; all of the design if ``None``).

    The fits run by ``(router, k, n)`` cell (:func:`fit_cell`) in this process, on
    ``executor`` (any :class:`concurrent.futures.Executor`), or on the ``dask.distributed``
    cluster at ``scheduler`` -- the same interface as the continual-learning sweeps
    (:func:`moetheory.continual.sweep.run_sweep`). On an executor or a cluster a cell of more
    than :data:`TASK_SAMPLES` samples (``n`` times replicates) is split into tasks of its
    replicates (at least two each), and the tasks are submitted largest first, so that the
    workers share the largest cells. The records do not depend on where or in which task a
    replicate runs: every fit is bit-identical on every SIMD/BLAS path and in any batch.

    Parameters
    ----------
    design : RatesDesign
        The design.
    seed : int
        Master seed.
    configs : iterable of (str, int), optional
        ``(router, k)`` pairs of the design to run.
    progress : bool
        Show a progress bar.
    executor : concurrent.futures.Executor, optional
        Where to run the cells.
    scheduler : str, optional
        Address of a ``dask.distributed`` scheduler to run the cells on.
    map_tasks : callable, optional
        ``map_tasks(func, items)``: the list of ``func(item)``, in order, wherever it runs;
        takes precedence over ``executor`` and ``scheduler``. A check passes
        :meth:`~moetheory.engine.CheckContext.map`, so that on a cluster every task runs
        supervised, under the check's limits, and ends with the check.
    first_rep : int
        Index of the first replicate (see :func:`fit_cell`).
    stop : callable, optional
        Futility: ``stop(router, k, n, records)`` is asked after each cell with its records,
        the cells of a config in the order of ``design.n_grid``; ``True`` leaves that
        config's later sizes out (the rates checks stop a config at its first cell whose
        fits cannot decide anything). In this process those cells are not fitted; on an
        executor or a cluster every cell is fitted and the same records are dropped, so the
        records do not depend on where the cells run. (The reference method ``"bfgs"``
        fits every cell and does not ask.)

    Returns
    -------
    list of dict
        One record per ``(router, k, n, replicate)`` fitted and kept, in the order of
        ``configs`` and ``design.n_grid``.

    Raises
    ------
    ValueError
        If a config is not in the design, or ``scheduler`` is given without
        ``dask.distributed`` installed.

    Notes
    -----
    Every replicate's data and starts come from its own generator seeded by
    ``(seed, router, k, n, rep)``, so the records do not depend on where or in which batch a
    cell runs.

    See Also
    --------
    fit_cell, reproduce_rates

    Examples
    --------
    >>> d = RatesDesign(n_grid=(30, 60), replicates=2, restarts=0, lm_iterations=10)
    >>> recs = run_rates(d, seed=0, configs=[("linear", 2)])
    >>> len(recs), sorted(median_table(recs, "voronoi_l1"))
    (4, [('linear', 2)])
    """
    todo = (
        list(configs)
        if configs is not None
        else [(r, k) for r in design.routers for k in design.ks]
    )
    for router, k in todo:
        if router not in design.routers or k not in design.ks:
            raise ValueError(f"config ({router!r}, {k}) is not in the design")
    x_eval = _x_eval(design, seed)
    if design.method == "bfgs":
        jobs = [
            (r, k, n, rep)
            for r, k in todo
            for n in design.n_grid
            for rep in range(design.replicates)
        ]
        return [fit_record(design, r, k, n, rep, seed, x_eval) for r, k, n, rep in jobs]
    cells = [(r, k, n) for r, k in todo for n in design.n_grid]
    from tqdm import tqdm

    bar = tqdm(total=len(cells), disable=not progress, desc="rates cells")
    try:
        if map_tasks is not None:
            return _kept(cells, _by_cell(_mapped_cells(map_tasks, design, cells, seed, x_eval,
                                                       bar, first_rep)), stop)
        if executor is None and scheduler is None:

            def tried(r: str, k: int, n: int, wait: bool = False
                      ) -> list[dict[str, Any]] | None:
                records = _cached_cell(design, r, k, n, seed, x_eval, first_rep, wait)
                if records is not None:
                    bar.update(1)
                return records

            def fitted(r: str, k: int, n: int) -> list[dict[str, Any]]:
                records = tried(r, k, n, wait=True)
                assert records is not None  # (a waiting call returns the records)
                return records

            return _kept(cells, fitted, stop, attempt=tried)
        if executor is not None:
            return _kept(cells, _by_cell(_mapped_cells(_on(executor), design, cells, seed,
                                                       x_eval, bar, first_rep)), stop)
        try:
            from distributed import Client
        except ImportError as exc:  # pragma: no cover - dask is an optional extra
            raise ValueError(
                "scheduler needs dask.distributed: pip install 'moetheory[dask]'"
            ) from exc
        with Client(scheduler) as client:
            records = _mapped_cells(_on(client.get_executor()), design, cells, seed, x_eval,
                                    bar, first_rep)
        return _kept(cells, _by_cell(records), stop)
    finally:
        bar.close()


def _kept(cells: list[tuple[str, int, int]],
          records_of: Callable[[str, int, int], list[dict[str, Any]]],
          stop: Callable[[str, int, int, list[dict[str, Any]]], bool] | None,
          attempt: Callable[[str, int, int], list[dict[str, Any]] | None] | None = None,
          ) -> list[dict[str, Any]]:
    """The records of ``cells`` in order, without a config's cells after the first one
    ``stop`` answers ``True`` for (``stop`` is asked in the order of a config's sizes;
    ``records_of`` is not asked for the cells it leaves out).

    ``attempt(r, k, n)``, if given, is ``records_of`` that returns ``None`` at once while
    another check of the run is fitting that cell. Of the cells certainly needed (each
    config's next one, or every cell without ``stop``), the first that nobody else is
    fitting is then fitted meanwhile, and only when all of them are being fitted elsewhere
    is the first awaited: checks that share a run's cells fit different ones side by side
    instead of waiting for each other. A cell that may not be needed is never fitted ahead,
    so a check's CPU time stays at most what it is without the run's store."""
    configs = list(dict.fromkeys((r, k) for r, k, _ in cells))
    open_ = {c: [x for x in cells if x[:2] == c] for c in configs}  # in size order
    got: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    while needed := [x for c in configs for x in (open_[c] if stop is None else open_[c][:1])]:
        records = None
        if attempt is not None:
            for cell in needed:
                if (records := attempt(*cell)) is not None:
                    break
        if records is None:
            cell = needed[0]
            records = records_of(*cell)
        got[cell] = records
        open_[cell[:2]].remove(cell)
        if stop is not None and stop(*cell, records):
            open_[cell[:2]] = []
    return [rec for cell in cells if cell in got for rec in got[cell]]


def _by_cell(records: list[dict[str, Any]]) -> Callable[[str, int, int], list[dict[str, Any]]]:
    """Look-up of fitted records by ``(router, k, n)``, each cell's in their order."""
    cells: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    for rec in records:
        cells.setdefault((rec["router"], rec["k"], rec["n"]), []).append(rec)
    return lambda r, k, n: cells[(r, k, n)]


#: Records of the cells fitted in this process, most recent last (:func:`_cached_cell`).
_CELLS: OrderedDict[tuple[Any, ...], list[dict[str, Any]]] = OrderedDict()
#: How many cells :data:`_CELLS` keeps (a cell's records take a few kB).
_CELLS_KEPT = 512


def _x_eval(design: RatesDesign, seed: int) -> np.ndarray:
    """The evaluation inputs of the function losses under master seed ``seed``."""
    return np.random.default_rng([seed, 999]).uniform(
        -design.x_half_width, design.x_half_width, (design.n_eval, 2))


#: The designs :func:`_run_cell` was asked about in this process, by ``repr`` (its key: a
#: design holds a dict, so it is not hashable itself).
_DESIGNS: dict[str, RatesDesign] = {}


@shared(maxsize=1)
def _run_cell(design: str, router: str, k: int, n: int, seed: int,
              first_rep: int) -> list[dict[str, Any]]:
    """:func:`fit_cell` of the design whose ``repr`` is ``design`` (in :data:`_DESIGNS`) with
    the evaluation inputs of ``seed``, computed once per run: the checks of a run that fit
    the same cell (each in its own process) share it."""
    d = _DESIGNS[design]
    return _fit_lent(d, router, k, n, seed, _x_eval(d, seed), first_rep)


def _fit_lent(design: RatesDesign, router: str, k: int, n: int, seed: int, x_eval: np.ndarray,
              first_rep: int) -> list[dict[str, Any]]:
    """:func:`fit_cell`, its replicates split over the workers a local run has lent to its
    checks (:func:`moetheory.engine._pool.lent_map`) when some are idle: the same records,
    every fit being bit-identical in any batch; in one batch, as before, when none is."""
    from moetheory.engine._pool import idle_workers, lent_map

    parts = min(design.replicates // 2, 1 + idle_workers())
    if parts <= 1:
        return fit_cell(design, router, k, n, seed, x_eval, first_rep)
    args = [(replace(design, replicates=count), r, k_, n_, seed, x_eval, first)
            for r, k_, n_, first, count in _tasks(design, [(router, k, n)], first_rep, parts)]
    return [record for records in lent_map(_fit_task, args) for record in records]


def _cached_cell(design: RatesDesign, router: str, k: int, n: int, seed: int,
                 x_eval: np.ndarray, first_rep: int, wait: bool = True
                 ) -> list[dict[str, Any]] | None:
    """:func:`fit_cell`, remembered per process and, during a run, across the run's check
    processes (:func:`moetheory.engine.shared.shared`): claims that share a cell (the same
    design, router, k, n, seed and replicates) fit it once. The fit is deterministic, so a
    remembered cell is the cell; callers get copies of its records. ``x_eval`` must be
    :func:`_x_eval` of ``seed`` (as :func:`run_rates` makes it). Without ``wait``, ``None``
    while another check of the run is fitting the cell."""
    key = (repr(design), router, k, n, seed, first_rep)
    records = _CELLS.get(key)
    if records is None:
        _DESIGNS[key[0]] = design
        args = (key[0], router, k, n, seed, first_rep)
        records = _run_cell(*args) if wait else _run_cell.attempt(*args)  # type: ignore
        if records is BUSY:
            return None
        _CELLS[key] = records
        if len(_CELLS) > _CELLS_KEPT:
            _CELLS.popitem(last=False)
    else:
        _CELLS.move_to_end(key)
    return copy.deepcopy(records)


def _tasks(design: RatesDesign, cells: list[tuple[str, int, int]], first_rep: int,
           parts: int | None = None) -> list[tuple[str, int, int, int, int]]:
    """``(router, k, n, first, count)``: each cell's replicates in near-equal parts (``parts``
    of them, or of about :data:`TASK_SAMPLES` samples each, at least two replicates each), in
    the order of ``cells``."""
    reps = design.replicates
    out = []
    for r, k, n in cells:
        m = parts or max(1, min(reps // 2, math.ceil(n * reps / TASK_SAMPLES)))
        bounds = [first_rep + reps * i // m for i in range(m + 1)]
        out += [(r, k, n, lo, hi - lo) for lo, hi in itertools.pairwise(bounds)]
    return out


def _fit_task(task: tuple) -> list[dict[str, Any]]:
    """One task of :func:`_mapped_cells`: the fits of some replicates of one cell."""
    return fit_cell(*task)


def _on(executor: Executor) -> Callable[[Callable[[Any], Any], list[Any]], Iterator[Any]]:
    """``map_tasks`` on an executor: every task submitted at once, results in order."""
    return lambda func, items: (f.result() for f in [executor.submit(func, x) for x in items])


def _mapped_cells(map_tasks, design, cells, seed, x_eval, bar, first_rep
                  ) -> list[dict[str, Any]]:
    """The records of ``cells`` from tasks of :func:`_tasks`, handed to ``map_tasks`` largest
    first, in the order of ``cells``."""
    tasks = _tasks(design, cells, first_rep)
    bar.reset(total=len(tasks))
    order = sorted(range(len(tasks)), key=lambda i: -tasks[i][2] * tasks[i][4])
    args = [(replace(design, replicates=count), r, k, n, seed, x_eval, first)
            for r, k, n, first, count in (tasks[i] for i in order)]
    done: dict[int, list[dict[str, Any]]] = {}
    for i, records in zip(order, map_tasks(_fit_task, args), strict=True):
        done[i] = records
        bar.update(1)
    return [record for i in range(len(tasks)) for record in done[i]]


def loss_matrix(
    records: list[dict[str, Any]], router: str, k: int, loss: str
) -> tuple[np.ndarray, np.ndarray]:
    """``(ns, losses)`` with ``losses[i]`` the sorted replicate losses at ``ns[i]`` (one config).

    Parameters
    ----------
    records : list of dict
        Records of :func:`run_rates`.
    router : str
        Router kind.
    k : int
        Atoms fitted.
    loss : str
        The loss column.

    Returns
    -------
    ns : ndarray of shape (m,)
    losses : ndarray of shape (m, R)

    Notes
    -----
    Every sample size must have the same number ``R`` of replicates.

    See Also
    --------
    slope_bootstrap : takes its output.

    Examples
    --------
    >>> recs = [{"router": "linear", "k": 2, "n": n, "rep": r, "l": n + r}
    ...         for n in (10, 20) for r in (0, 1)]
    >>> loss_matrix(recs, "linear", 2, "l")[1].tolist()
    [[10.0, 11.0], [20.0, 21.0]]
    """
    ns = sorted({r["n"] for r in records if (r["router"], r["k"]) == (router, k)})
    mat = [
        sorted(r[loss] for r in records if (r["router"], r["k"], r["n"]) == (router, k, n))
        for n in ns
    ]
    return np.array(ns, dtype=float), np.array(mat, dtype=float)


#: Expert families of the rates figure: the ones the seeds name for the perturbed router's
#: fast rates (ReLU and GeLU FFNs 002 L58; ReLU, tanh, z^p 002 L116; GELU 000 L165).
FIGURE_EXPERTS: tuple[str, ...] = ("tanh", "relu", "gelu", "poly2")


def _median_band(mat: np.ndarray, rng: np.random.Generator, n_boot: int = 500) -> np.ndarray:
    """95% percentile-bootstrap interval of the median, per row of ``mat``; shape (m, 2)."""
    idx = rng.integers(0, mat.shape[1], size=(n_boot, *mat.shape))
    meds = np.median(np.take_along_axis(np.broadcast_to(mat, idx.shape), idx, axis=2), axis=2)
    return np.quantile(meds, [0.025, 0.975], axis=0).T


def reproduce_rates(
    out_dir: Path,
    *,
    seed: int = 0,
    profile: str = "quick",
    replicates: int | None = None,
    progress: bool = True,
    scheduler: str | None = None,
    executor: Executor | None = None,
) -> list[Path]:
    r"""Run the rates experiment for every router and expert family; write CSV and figure.

    Routers linear, cosine and perturbed; tanh experts with :math:`k = 2` (exact-specified)
    and :math:`k = 3` (over-specified), ReLU, GELU (:math:`z \Phi(z)`) and :math:`z^2` experts
    with :math:`k = 3` (:data:`FIGURE_EXPERTS`). The figure has one column per expert family
    and two rows (Voronoi loss :math:`\mathcal{L}_{1,1}` on identifiable coordinates;
    :math:`L^2(\mu)` regression error), median against :math:`n` on log-log axes with a 95%
    bootstrap
    band of the median, and the fitted slope in the legend. ``scheduler``/``executor`` run
    the cells on a cluster (see :func:`run_rates`); the numbers are the same as locally.

    Parameters
    ----------
    out_dir : pathlib.Path
        Directory for ``rates.csv``, ``rates.png`` and ``rates.svg`` (created).
    seed : int
        Master seed.
    profile : {"quick", "full"}
        Design (:func:`rates_design`).
    replicates : int, optional
        Replicates per ``n`` instead of the profile's.
    progress : bool
        Show progress bars.
    scheduler : str, optional
        ``dask.distributed`` scheduler address.
    executor : concurrent.futures.Executor, optional
        Where to run the cells.

    Returns
    -------
    list of pathlib.Path
        The CSV, PNG and SVG written.

    Notes
    -----
    The legend gives each series' log-log slope with its 95% exact-bootstrap interval; the
    caption in the figure states profile, seed and replicate count.

    See Also
    --------
    run_rates

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:  # doctest: +SKIP
    ...     [p.name for p in reproduce_rates(Path(tmp), replicates=3, progress=False)]
    ['rates.csv', 'rates.png', 'rates.svg']
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    base = rates_design(profile, replicates)
    records: list[dict[str, Any]] = []
    for expert in FIGURE_EXPERTS:
        design = replace(base, expert=expert)
        configs = [(r, k) for r in design.routers for k in design.ks if expert == "tanh" or k == 3]
        recs = run_rates(design, seed, configs, progress, executor=executor, scheduler=scheduler)
        records.extend({**rec, "expert": expert} for rec in recs)
    csv_path = out_dir / "rates.csv"
    with csv_path.open("w", newline="") as fh:
        writer = csv.DictWriter(
            fh, fieldnames=["expert", "router", "k", "n", "rep", *LOSSES, "objective",
                            "converged", "lm_iterations", "at_bound", "hull_stop"]
        )
        writer.writeheader()
        writer.writerows(records)
    n_reps = base.replicates
    fig, axes = plt.subplots(2, len(FIGURE_EXPERTS), figsize=(5.2 * len(FIGURE_EXPERTS), 9.2),
                             squeeze=False)
    rng = np.random.default_rng([seed, 12345])
    markers = {"linear": "s", "cosine": "o", "perturbed": "^"}
    for col, expert in enumerate(FIGURE_EXPERTS):
        recs = [r for r in records if r["expert"] == expert]
        for row, (loss, title, ylabel) in enumerate((
            ("voronoi_l1", r"Voronoi loss $\mathcal{L}_{1,1}$ on identifiable coordinates",
             r"median $\mathcal{L}_{1,1}(\hat G_n, G_*)$ (dimensionless)"),
            ("regression_l2", r"regression error $\|f_{\hat G_n}-f_{G_*}\|_{L^2(\mu)}$",
             r"median $\|f_{\hat G_n}-f_{G_*}\|_{L^2(\mu)}$ (units of $Y$)"),
        )):
            ax = axes[row, col]
            for (router, k), table in median_table(recs, loss).items():
                ns, mat = loss_matrix(recs, router, k, loss)
                fit = slope_bootstrap(ns, mat, 0.05, rng, exact=True)
                band = _median_band(mat, rng)
                color = f"C{base.routers.index(router)}"
                style = "-" if k == 3 else ":"
                ax.loglog(table[:, 0], table[:, 1], style, color=color, marker=markers[router],
                          ms=5, mfc="white" if k == 2 else color, lw=1.4,
                          label=f"{router} router, k={k}: slope {fit['slope']:.2f} "
                          f"[{fit['ci'][0]:.2f}, {fit['ci'][1]:.2f}]")
                ax.fill_between(ns, band[:, 0], band[:, 1], color=color,
                                alpha=0.18 if k == 3 else 0.08, lw=0)
            ax.set_xlabel("sample size $n$ (observations)")
            ax.set_ylabel(ylabel, fontsize=8)
            ax.set_title(f"{expert} experts: {title}", fontsize=9)
            ax.grid(True, which="major", alpha=0.3)
            ax.legend(fontsize=6.5, title="series: slope [95% CI]", title_fontsize=6.5)
    fig.suptitle(
        f"Least-squares MoE estimation, $k_*=2$, $d=2$: profile {profile}, seed {seed}, "
        f"{n_reps} replicates per $n$"
    )
    caption = (
        f"Figure: median loss of the least-squares estimate against the sample size n "
        f"(log-log), {n_reps} replicates per n and series, profile {profile}, seed {seed}. "
        "Colour and marker: router (blue squares linear, orange circles cosine, green "
        "triangles perturbed cosine, tau1 = tau2 = 1); line: fitted atoms (solid, filled "
        "markers k = 3 over-specified; dotted, open markers k = 2 exact-specified). Bands: 95% "
        "percentile-bootstrap interval of the median at each n. Legend: log-log slope of the "
        "median with its 95% exact-bootstrap interval. Top row: Voronoi loss L11 on "
        "identifiable coordinates; bottom row: L2(mu) regression error. Expert families "
        "sigma(a^T x + b): " + ", ".join(FIGURE_EXPERTS) + " (gelu: z Phi(z), Phi the standard "
        "normal distribution function; poly2: z^2). Fits run projected Levenberg-Marquardt "
        "(then projected BFGS) on the compact parameter space of (A.1) to the stopping rule "
        f"(Gauss-Newton decrement <= {base.lm_tol:g} x objective) or the caps "
        f"{base.lm_iterations} and {base.qn_iterations}; winning fits that stopped by the rule: "
        + ", ".join(
            f"{e} {np.mean([bool(r['converged']) for r in records if r['expert'] == e]):.0%}"
            for e in FIGURE_EXPERTS)
        + "."
    )
    fig.text(0.01, 0.005, textwrap.fill(caption, 63 * len(FIGURE_EXPERTS)), fontsize=7,
             va="bottom", ha="left")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    paths = [csv_path]
    for ext in ("png", "svg"):
        path = out_dir / f"rates.{ext}"
        fig.savefig(path)
        paths.append(path)
    plt.close(fig)
    return paths
