"""The simulations several sections share: configurations, seeds, cached runs, measures.

Seeds derive from the run's master seed (``ctx.rng`` streams, or ``ctx.shared_seed`` for the
simulations shared through :func:`moetheory.engine.shared.shared`, computed once per run).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from moetheory import CheckContext
from moetheory.continual import CLConfig, CLResult
from moetheory.continual.data import task_batch
from moetheory.continual.simulator import concat_results, simulate_many
from moetheory.engine.shared import shared
from proofs_checks.li2025continual._flags import ALTERNATIVE_FLAGS, flag_configs

__all__ = [
    "CHUNK",
    "ETA_GRID",
    "GRID",
    "GRID_RUNS",
    "HORIZON",
    "LATE",
    "LOW_GRID",
    "LOW_SEED",
    "MEANINGFUL",
    "M_GRID",
    "NEARLY_ZERO",
    "PILOT",
    "RANDOM_BETA",
    "REGIME_K",
    "REGIME_M",
    "REGIME_N",
    "STREAM",
    "GridRuns",
    "_balance",
    "_curves",
    "_exploration_runs",
    "_fresh_pairs",
    "_gradients",
    "_grid_runs",
    "_grid_seed",
    "_low_runs",
    "_phase_runs",
    "_profile_sizes",
    "_regime_free_runs",
    "_regime_runs",
    "_regime_seed",
    "_seed",
    "_t1",
    "_window_order",
    "chunks",
    "exploration_configs",
    "flag_runs",
    "grid_config",
    "grid_flag_runs",
    "grid_runs",
    "low_config",
    "low_grid_evidence",
    "low_runs",
    "phase_runs",
    "reading_config",
    "reading_runs",
    "regime_config",
    "regime_flag_runs",
    "regime_free_runs",
    "regime_runs",
]


#: Definition 1's data model read literally: the signal column is β_t v_{n_t} with a fresh
#: β_t ~ Unif(0, C], C = 1, every round (Appendix A.2's experiments fix β = 1: reading 'paper').
RANDOM_BETA = "paper, random β"
#: Random stream of each reading's simulator seed (the β = 1 and code streams predate the
#: random-β reading and are unchanged).
STREAM = {"paper": 0, "code": 1, RANDOM_BETA: 10}


def reading_config(reading: str, **fields: Any) -> CLConfig:
    """The configuration of a named reading: 'paper', 'code' or :data:`RANDOM_BETA`.

    Parameters
    ----------
    reading : str
        ``"paper"`` (Definition 1 with Appendix A.2's ``β = 1``), ``"code"`` (the released
        code) or ``"paper, random β"`` (Definition 1's ``β_t ~ Unif(0, C]``).
    **fields
        Further :class:`~moetheory.continual.CLConfig` fields.

    Returns
    -------
    CLConfig

    Raises
    ------
    ValueError
        If ``reading`` is not one of the three names, or a field is out of range.

    Examples
    --------
    >>> reading_config("paper, random β", M=3).beta, reading_config("code").data_model
    ('uniform', 'code')
    """
    if reading not in STREAM:
        raise ValueError(f"reading must be one of {sorted(STREAM)}, got {reading!r}")
    base = CLConfig(reading="code" if reading == "code" else "paper", **fields)
    return base.replace(beta="uniform") if reading == RANDOM_BETA else base


def _seed(ctx: CheckContext, stream: int) -> int:
    return int(ctx.rng(stream).integers(0, 2**62))


def _curves(res: CLResult, metric: str) -> np.ndarray:
    """The figure's curve: paper metrics, or the code's when the run is the code reading."""
    code = res.config.reading == "code"
    if metric == "F":
        return res.forgetting_code if code else res.forgetting
    return res.generalization_code if code else res.generalization


#: Tolerances, fixed before any simulation was looked at, as fractions of the problem's known
#: error unit ū = mean E‖w_n‖² (:func:`moetheory.continual.ground_truth_unit`: the expected G
#: of the untrained model w = 0, the curves' starting level), computed from the configuration
#: alone; never from an estimate (a tolerance taken from the data moves with the data).
NEARLY_ZERO = 0.1  # "converges to nearly 0": late level <= 10% of ū
MEANINGFUL = 0.1  # smallest meaningful effect: 10% of ū


LATE = 0.1  # the late window is the last 10% of the rounds


def _grid_seed(ctx: CheckContext) -> int:
    """The seed of this module's shared simulations: from the master seed and the profile."""
    return ctx.shared_seed(f"continual_lemmas:{ctx.profile}")


#: σ0 grid of the order statements, and the exponent tolerance (fixed before looking).
GRID = (0.05, 0.1, 0.2)


def _profile_sizes(ctx: CheckContext) -> int:
    return 48 if ctx.full else 16


def grid_config(reading: str, sigma0: float, **changes: Any) -> CLConfig:
    """One grid point: the paper's coupling ``η = σ0^0.5``, ``λ = Γ = σ0^1.25``; horizon
    ``T = ⌈1.5 t1⌉ + 20`` with ``t1 = ⌈η⁻¹σ0^{-0.25} M⌉`` (Proposition 2's first round, and
    the order of Proposition 3's termination round, with constant 1.5)."""
    base = "code" if reading == "code" else "paper"
    eta = sigma0**0.5
    M = changes.pop("M", 20)
    t1 = math.ceil(M / eta * sigma0**-0.25)
    cfg = CLConfig(reading=base, N=7, K=7, M=M, sigma0=sigma0, eta=eta, lam=sigma0**1.25,
                   T=math.ceil(1.5 * t1) + 20)
    if reading == "paper, random β":
        cfg = cfg.replace(beta="uniform")
    return cfg.replace(**changes) if changes else cfg


@shared(maxsize=16)
def grid_runs(
    reading: str, R: int, seed: int, which: str = "both"
) -> dict[float, tuple[CLResult | None, CLResult | None]]:
    """For each σ0 of :data:`GRID`: Algorithm 1 with termination and without (``which`` =
    ``"term"``, ``"free"`` or ``"both"``; the other entry is ``None``), with gate outputs,
    expert sets, gate parameters and expert models recorded. A configuration's runs are the
    same bits whether it is simulated alone or stacked with the other."""
    if which not in ("term", "free", "both"):
        raise ValueError(f"which must be 'term', 'free' or 'both', got {which!r}")
    out: dict[float, tuple[CLResult | None, CLResult | None]] = {}
    for i, sig0 in enumerate(GRID):
        cfg = grid_config(reading, sig0)
        cfgs = {"term": [cfg], "free": [cfg.replace(terminate=False)],
                "both": [cfg, cfg.replace(terminate=False)]}[which]
        res = simulate_many(cfgs, R, seed + i, record_gates=True, record_sets=True,
                            record_params=True)
        if which == "both":
            out[sig0] = (res[0], res[1])
        else:
            out[sig0] = (res[0], None) if which == "term" else (None, res[0])
    return out


#: Offset of the pilots' seeds from a run's own (:func:`moetheory.stats.sized_run`).
PILOT = 500
#: Offset between the seeds of the batches a run larger than the floor is made of.
CHUNK = 1000


def chunks(R: int, floor: int) -> list[tuple[int, int]]:
    """The batches of an ``R``-replicate run: (replicates, seed offset) of each.

    The floor's run comes first (offset 0: the run every check shares), then batches that
    double the total (offsets :data:`CHUNK`, 2 :data:`CHUNK`, ...; the last one cut to
    ``R``), so a larger run reuses the smaller ones and checks asking for the same size
    share every batch.

    Examples
    --------
    >>> chunks(64, 16)
    [(16, 0), (16, 1000), (32, 2000)]
    >>> chunks(8, 16)
    [(8, 0)]
    """
    out = [(min(R, floor), 0)]
    total, k = out[0][0], 1
    while total < R:
        size = min(total, R - total)
        out.append((size, k * CHUNK))
        total, k = total + size, k + 1
    return out


def _joined(parts: list[dict[float, Any]]) -> dict[float, Any]:
    """Per σ0, the batches' runs joined (tuples of runs joined entry by entry)."""
    out: dict[float, Any] = {}
    for sig0, first in parts[0].items():
        if isinstance(first, tuple):
            out[sig0] = tuple(None if x is None else concat_results([p[sig0][j] for p in parts])
                              for j, x in enumerate(first))
        else:
            out[sig0] = concat_results([p[sig0] for p in parts])
    return out


def _batched(ctx: CheckContext, run: Any, seed: int, R: int | None, offset: int = 0
             ) -> tuple[dict[float, Any], int]:
    """``run(R, seed)`` (a shared simulation by σ0) of ``R`` replicates (the profile's floor by
    default) in batches (:func:`chunks`) from the seed ``seed + offset``; with that seed.
    ``offset``: 0 for the main run, :data:`PILOT` for the pilot's own run (at most the floor:
    one batch), :data:`moetheory.stats.SECOND_LOOK` for a second look's
    (:meth:`moetheory.stats.Allowance.second_look`, fresh data)."""
    floor = _profile_sizes(ctx)
    seed += offset
    return _joined([run(size, seed + off) for size, off in chunks(R or floor, floor)]), seed


def _grid_runs(ctx: CheckContext, reading: str, which: str, R: int | None = None,
               offset: int = 0) -> tuple[dict[float, Any], int]:
    """:func:`grid_runs` of ``R`` replicates (the profile's by default) in batches, the
    seed moved by ``offset`` (:func:`_batched`); with the run's seed."""
    return _batched(ctx, lambda n, sd: grid_runs(reading, n, sd, which), _grid_seed(ctx), R,
                    offset)


@shared(maxsize=8)
def phase_runs(reading: str, R: int, seed: int) -> dict[float, CLResult]:
    """For each σ0 of :data:`GRID`: the grid's configuration without termination, run only
    through the exploration phase and one round past it (``T = T1 + 2``), gate parameters
    and expert models recorded.

    Rounds ``t <= T1 + 1`` follow the same law as :func:`grid_runs`' (a run's first rounds do
    not depend on its horizon, and termination cannot act before ``T1``: flags are evaluated
    from ``T1`` on), at a fraction of the cost: the checks that read only these rounds
    (Lemmas 7 and 9, Theorem 1's exploration phase) can afford the replicates their
    comparisons against 1 need (:mod:`._budgets`, budget ``"phase"``)."""
    out = {}
    for i, sig0 in enumerate(GRID):
        cfg = grid_config(reading, sig0)
        cfg = cfg.replace(terminate=False, T=cfg.T1 + 2)
        out[sig0] = simulate_many([cfg], R, seed + i, record_params=True)[0]
    return out


def _phase_seed(ctx: CheckContext) -> int:
    """The seed of the exploration-phase runs (:func:`phase_runs`): master seed and profile."""
    return ctx.shared_seed(f"continual_phase:{ctx.profile}")


def _phase_runs(ctx: CheckContext, reading: str, R: int | None = None, offset: int = 0
                ) -> tuple[dict[float, CLResult], int]:
    """:func:`phase_runs` of ``R`` replicates (the profile's floor by default) in batches,
    the seed moved by ``offset`` (:func:`_batched`); with the run's seed."""
    return _batched(ctx, lambda n, sd: phase_runs(reading, n, sd), _phase_seed(ctx), R, offset)


@shared(maxsize=8)
def grid_flag_runs(reading: str, R: int, seed: int) -> dict[str, dict[float, CLResult]]:
    """:func:`grid_runs`' runs with termination under the other readings of Algorithm 1's
    flags (:data:`~proofs_checks.li2025continual._flags.ALTERNATIVE_FLAGS`), by flag reading
    and σ0: the same seeds, so each is paired with the primary reading's run."""
    out: dict[str, dict[float, CLResult]] = {name: {} for name in ALTERNATIVE_FLAGS}
    for i, sig0 in enumerate(GRID):
        res = simulate_many(flag_configs(grid_config(reading, sig0)), R, seed + i,
                            record_gates=True, record_sets=True, record_params=True)
        for name, r in zip(ALTERNATIVE_FLAGS, res, strict=True):
            out[name][sig0] = r
    return out


@shared(maxsize=8)
def regime_flag_runs(reading: str, R: int, seed: int) -> dict[str, dict[float, CLResult]]:
    """:func:`regime_runs` under the other readings of Algorithm 1's flags, by flag reading
    and σ0 (the same seeds: paired with the primary reading's runs)."""
    out: dict[str, dict[float, CLResult]] = {name: {} for name in ALTERNATIVE_FLAGS}
    for i, sig0 in enumerate(GRID):
        res = simulate_many(flag_configs(regime_config(reading, sig0)), R, seed + i,
                            record_sets=True, record_params=True)
        for name, r in zip(ALTERNATIVE_FLAGS, res, strict=True):
            out[name][sig0] = r
    return out


def _t1(cfg: CLConfig) -> int:
    return math.ceil(cfg.M / cfg.eta * cfg.sigma0**-0.25)


def _gradients(res: CLResult) -> np.ndarray:
    """``∇_θ L_task`` of every expert and round, ``(θ_t - θ_{t+1})/η``: (R, T-1, M, d)."""
    assert res.gate_params is not None
    return (res.gate_params[:, :-1] - res.gate_params[:, 1:]) / res.config.eta


def _balance(res: CLResult) -> np.ndarray:
    T1, M = res.config.T1, res.config.M
    e = res.expert[:, :T1]
    f = np.stack([(e == m).mean(axis=1) for m in range(M)], axis=1)
    return np.abs(f - 1.0 / M).max(axis=1)


def _fresh_pairs(res: CLResult, seed: int, rounds: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Fresh data of every task: two column sums ``x̄`` per (replicate, task) with the same
    signal, from the run's own data model. Returns ``(xa, xb)`` of shape (R, N, d)."""
    cfg = res.config
    R, N, d = res.replicates, cfg.N, cfg.d
    rng = np.random.default_rng(seed)
    xa = np.zeros((R, N, d))
    xb = np.zeros((R, N, d))
    for n in range(N):
        batch = task_batch(cfg.replace(N=1, K=1), rng, res.signals[:, n:n + 1], 2)
        xbar = batch.X.sum(axis=-1)  # (R, 2, d)
        xa[:, n], xb[:, n] = xbar[:, 0], xbar[:, 1]
    return xa, xb


#: Rounds of the M < N runs: well past t2 = ⌈η⁻¹σ0^{-0.75} M⌉ (<= 213 on the grid, M = 5).
HORIZON = 300
REGIME_N, REGIME_K, REGIME_M = 30, 3, 5


def _regime_seed(ctx: CheckContext) -> int:
    """The seed of this module's shared simulations: from the master seed and the profile."""
    return ctx.shared_seed(f"continual_regimes:{ctx.profile}")


def regime_config(reading: str, sigma0: float, M: int = REGIME_M) -> CLConfig:
    """The M < N grid point with the paper's coupling (``T`` = :data:`HORIZON`)."""
    eta = sigma0**0.5
    cfg = CLConfig(reading="code" if reading == "code" else "paper", N=REGIME_N, K=REGIME_K,
                   M=M, sigma0=sigma0, eta=eta, lam=sigma0**1.25, T=HORIZON)
    return cfg.replace(beta="uniform") if reading == "paper, random β" else cfg


@shared(maxsize=8)
def regime_runs(reading: str, R: int, seed: int) -> dict[float, CLResult]:
    """Algorithm 1 with termination at every σ0 of the grid, models and sets recorded."""
    return {
        sig0: simulate_many([regime_config(reading, sig0)], R, seed + i, record_sets=True,
                          record_params=True)[0]
        for i, sig0 in enumerate(GRID)
    }


def _regime_runs(ctx: CheckContext, reading: str, R: int | None = None, offset: int = 0
                 ) -> tuple[dict[float, CLResult], int]:
    """:func:`regime_runs` of ``R`` replicates (the profile's by default) in batches, the
    seed moved by ``offset`` (:func:`_batched`); with the run's seed."""
    return _batched(ctx, lambda n, sd: regime_runs(reading, n, sd), _regime_seed(ctx), R,
                    offset)


def _regime_free_runs(ctx: CheckContext, reading: str, R: int | None = None, offset: int = 0
                      ) -> tuple[dict[float, CLResult], int]:
    """The run's :func:`regime_free_runs` of ``reading`` and their seed (``R`` replicates,
    the profile's by default, in batches, the seed moved by ``offset``: :func:`_batched`)."""
    return _batched(ctx, lambda n, sd: regime_free_runs(reading, n, sd), _regime_seed(ctx) + 40,
                    R, offset)


@shared(maxsize=8)
def regime_free_runs(reading: str, R: int, seed: int) -> dict[float, CLResult]:
    """The M < N grid without termination (Proposition 2's setting): gate outputs, expert
    sets and gate parameters recorded, ``T`` = :data:`HORIZON` (past ``t2`` at every σ0)."""
    return {
        sig0: simulate_many([regime_config(reading, sig0).replace(terminate=False)], R, seed + i,
                          record_gates=True, record_sets=True, record_params=True)[0]
        for i, sig0 in enumerate(GRID)
    }


#: σ0 below :data:`GRID` that the checks of Proposition 2's orders add (``cl.prop2.t1-gaps``,
#: ``cl.prop2.m-lt-n``): the grid extended downward by two halvings, to 0.0125–0.2 (1.2
#: decades instead of 0.6). Fixed from the statement and the cost before any verdict was
#: read: O(σ0^a) and Θ(σ0^a) are statements about small σ0, and a fitted slope's interval
#: shrinks with the spread of log σ0 far faster than with replicates (the slope's variance
#: over the five points is 1/5 of that over GRID's three at the same replicates per point).
#: The rounds stay affordable (t1 = ⌈η⁻¹σ0^{−0.25}M⌉ = 535 and t2 = 1197 at σ0 = 0.0125;
#: :func:`low_config`), and the quantities exist (a non-trivial expert set at t1) in about
#: the same share of runs as on GRID.
LOW_GRID = (0.0125, 0.025)
#: Offset of the seeds of the :data:`LOW_GRID` runs from the seed of the runs they extend
#: (``+ i`` at the i-th σ0, as :func:`grid_runs`).
LOW_SEED = 100


def low_config(reading: str, sigma0: float, regime: bool) -> CLConfig:
    """A :data:`LOW_GRID` point without termination: the σ0 grid's configuration
    (:func:`grid_config`; ``regime``: the M < N one, :func:`regime_config`) run only through
    the last round Proposition 2 reads, ``t1 + 1`` (M > N) or ``t2 + 1`` with
    ``t2 = ⌈η⁻¹σ0^{−0.75}M⌉`` (M < N; past :data:`HORIZON` at σ0 = 0.0125).

    Parameters
    ----------
    reading : str
        ``"paper"``, ``"code"`` or ``"paper, random β"`` (:func:`reading_config`).
    sigma0 : float
        The grid point, ``σ0 > 0``.
    regime : bool
        The M < N regime (:data:`REGIME_N`, :data:`REGIME_K`, :data:`REGIME_M`).

    Returns
    -------
    CLConfig
        Without termination, ``T = t1 + 1`` or ``t2 + 1``.

    Notes
    -----
    A run's first rounds follow the same law whatever its horizon (the tasks, data and
    noise of each round are drawn afresh and nothing in Algorithm 1 reads ``T``), so these
    runs read what the grid's longer runs would.

    Examples
    --------
    >>> low_config("paper", 0.0125, regime=False).T, low_config("paper", 0.0125, regime=True).T
    (536, 1198)
    """
    if regime:
        cfg = regime_config(reading, sigma0)
        t2 = math.ceil(cfg.M / cfg.eta * sigma0**-0.75)
        return cfg.replace(terminate=False, T=t2 + 1)
    cfg = grid_config(reading, sigma0)
    return cfg.replace(terminate=False, T=_t1(cfg) + 1)


@shared(maxsize=8)
def low_runs(reading: str, R: int, seed: int, regime: bool) -> dict[float, CLResult]:
    """For each σ0 of :data:`LOW_GRID`: :func:`low_config`'s run on seed ``seed + i``, gate
    outputs and expert sets recorded (what Proposition 2's checks read).

    Parameters
    ----------
    reading : str
        The reading (:func:`reading_config`).
    R, seed : int
        Replicates and the seed of the first point.
    regime : bool
        The M < N regime's configuration instead of the σ0 grid's.

    Returns
    -------
    dict of float to CLResult
        By σ0.
    """
    return {sig0: simulate_many([low_config(reading, sig0, regime)], R, seed + i,
                                record_gates=True, record_sets=True)[0]
            for i, sig0 in enumerate(LOW_GRID)}


def _low_runs(ctx: CheckContext, reading: str, regime: bool, R: int | None = None,
              offset: int = 0) -> tuple[dict[float, CLResult], int]:
    """:func:`low_runs` of ``R`` replicates in batches, on the seeds of the runs they extend
    (:func:`_grid_runs` without termination, or :func:`_regime_free_runs`, moved by
    ``offset``: :func:`_batched`) plus :data:`LOW_SEED`; with the seed of the runs
    extended."""
    seed = _regime_seed(ctx) + 40 if regime else _grid_seed(ctx)
    return _batched(ctx, lambda n, sd: low_runs(reading, n, sd + LOW_SEED, regime), seed, R,
                    offset)


#: η and M grids of Lemmas 8-9 (the end of exploration), at σ0 = 0.4.
ETA_GRID = (0.125, 0.25, 0.5)
M_GRID = (10, 20, 40)


def exploration_configs(reading: str, vary: str) -> dict[float, CLConfig]:
    """Lemma 8's exploration runs (σ0 = 0.4, rounds through T1 + 1, no termination) by the
    value of the parameter ``vary`` (``"eta"``: :data:`ETA_GRID` at M = 20; ``"M"``:
    :data:`M_GRID` at η = 0.5)."""
    out = {}
    for x in ETA_GRID if vary == "eta" else M_GRID:
        changes = {"eta": x} if vary == "eta" else {"M": int(x), "eta": 0.5}
        cfg = grid_config(reading, 0.4, **changes)
        out[float(x)] = cfg.replace(T=cfg.T1 + 1, terminate=False)
    return out


@shared(maxsize=8)
def _exploration_runs(reading: str, R: int, seed: int, vary: str) -> dict[float, CLResult]:
    return {x: simulate_many([cfg], R, seed + 10 + i, record_params=True)[0]
            for i, (x, cfg) in enumerate(exploration_configs(reading, vary).items())}


def _window_order(res: CLResult, clusters: np.ndarray | None = None) -> np.ndarray:
    """Share of rounds T1 < t <= t1 in which every expert of M_{n_t} has a larger gate output
    (so a larger softmax value) on X_t than every expert outside it (Lemma 15); with
    ``clusters``, the sets and tasks are compared by cluster (the M < N version)."""
    assert res.gate_outputs is not None and res.expert_sets is not None
    T1, t1 = res.config.T1, _t1(res.config)
    R = res.replicates
    share = np.zeros(R)
    for r in range(R):
        ok = []
        for t in range(T1, min(t1, res.config.T)):
            if clusters is None:
                inside = res.expert_sets[r, t] == res.task[r, t]
            else:
                inside = clusters[res.expert_sets[r, t]] == clusters[res.task[r, t]]
            if inside.all() or not inside.any():
                ok.append(bool(inside.any()))
                continue
            h = res.gate_outputs[r, t]
            ok.append(bool(h[inside].min() > h[~inside].max()))
        share[r] = float(np.mean(ok)) if ok else np.nan
    return share


# --------------------------------------------------------------------------------------
# The runs a grid check reads, by name
# --------------------------------------------------------------------------------------


#: A reading's runs of a grid check: one simulator result per σ0 of the grid.
GridRuns = dict[float, CLResult]

#: The runs a grid check reads, by name: the σ0 grid with termination (``"term"``) or without
#: (``"free"``), the M < N regime with termination (``"regime"``) or without
#: (``"regime-free"``), and the σ0 grid's exploration phase alone (``"phase"``: rounds up to
#: T1 + 1, :func:`phase_runs`, with a budget of its own); ``"free-wide"`` and
#: ``"regime-free-wide"``: the runs without termination extended down to σ0 = 0.0125
#: (:data:`LOW_GRID`, :func:`low_runs`; budget ``"wide"``).
GRID_RUNS = ("term", "free", "regime", "regime-free", "phase", "free-wide", "regime-free-wide")


def reading_runs(ctx: CheckContext, reading: str, runs: str, R: int | None = None,
                 offset: int = 0) -> tuple[GridRuns, int]:
    """The runs named ``runs`` (:data:`GRID_RUNS`) of ``reading``, and their simulator seed:
    ``R`` replicates (the profile's by default), the seeds moved by ``offset``
    (:data:`PILOT` for the pilot's, :data:`moetheory.stats.SECOND_LOOK` for a second
    look's).

    Raises
    ------
    ValueError
        If ``runs`` is not one of :data:`GRID_RUNS`.
    """
    if runs == "regime":
        return _regime_runs(ctx, reading, R, offset)
    if runs == "regime-free":
        return _regime_free_runs(ctx, reading, R, offset)
    if runs == "phase":
        return _phase_runs(ctx, reading, R, offset)
    if runs in ("free-wide", "regime-free-wide"):
        base, seed = reading_runs(ctx, reading, runs.removesuffix("-wide"), R, offset)
        low, _ = _low_runs(ctx, reading, runs.startswith("regime"), R, offset)
        return {**low, **base}, seed
    if runs not in GRID_RUNS:
        raise ValueError(f"runs must be one of {GRID_RUNS}, got {runs!r}")
    pairs, seed = _grid_runs(ctx, reading, runs, R, offset)
    return {sig0: pair[0] if runs == "term" else pair[1] for sig0, pair in pairs.items()}, seed


def flag_runs(ctx: CheckContext, reading: str, runs: str, R: int, offset: int = 0
              ) -> dict[str, GridRuns]:
    """The runs named ``runs`` of ``R`` replicates under the other readings of Algorithm 1's
    flags, by flag reading and σ0: the same batches and seeds as the primary reading's
    (:func:`reading_runs`, with the same ``offset``), so paired with them; none for the runs
    without termination."""
    if runs == "term":
        seed, fn = _grid_seed(ctx), grid_flag_runs
    elif runs == "regime":
        seed, fn = _regime_seed(ctx), regime_flag_runs
    else:
        return {}
    seed += offset
    parts = [fn(reading, size, seed + off) for size, off in chunks(R, _profile_sizes(ctx))]
    return {name: _joined([p[name] for p in parts]) for name in ALTERNATIVE_FLAGS}


def low_grid_evidence(grid: GridRuns) -> dict[str, Any]:
    """What a check on the runs extended downward (``"*-wide"``) records of the new points."""
    return {
        "sigma0": list(LOW_GRID), "rounds": [grid[s].config.T for s in LOW_GRID],
        "seeds": f"simulator_seed + {LOW_SEED} + i at the i-th point, in the shared runs' "
                 "batches",
        "why": "the orders are statements about small σ0: the shared grid extended downward "
               "by two halvings, fixed from cost and validity before any verdict (the slope's "
               "variance is 1/5 of the shared grid's at the same replicates); each new point "
               "runs only through the last round the check reads",
    }
