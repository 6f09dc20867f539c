"""Replicates of the vowel checks sized from a pilot (issue 32), and the epoch runs they share.

Each statistical check of :mod:`.vowels` runs a *pilot* on streams of its own (judged with the
shipped claimed values, recorded nowhere, never in a verdict), sizes its main run from the
pilot's comparisons of the primary reading (the claim's verdict) with
:func:`moetheory.stats.sized_run`, and runs ``n = clip(needed, floor, budget)``
replicates at the claim's full level (one look). The budgets (:data:`BUDGETS`) are
replicates per claim and profile, fixed from the CPU seconds a replicate costs on the
reference machine; the evidence records the plan and, for an open verdict, what would
decide it.

``j91.vowel.epochs`` and ``j91.vowel.scaling`` run the same experiment (epochs to the
criterion): their runs are simulated in chunks of :data:`CHUNK` replicates shared through
:func:`moetheory.engine.shared.shared` (:func:`epochs_runs`), so the mixtures both need are
trained once per run, and their sizes are rounded up to whole chunks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from moetheory import CheckContext
from moetheory.engine.shared import each_shared, shared
from moetheory.stats import Allowance

__all__ = ["BUDGETS", "CHUNK", "allowance", "epochs_runs", "epochs_seed"]

#: Per claim and profile: (pilot, floor, budget) replicates and the CPU seconds the budget's
#: simulations take, measured per replicate on a 2-core x86-64 machine (2026-12-04, master
#: seed 0, the claims' own runs): quick 0.59 s for the six epoch runs (four of its mixtures
#: of 4 experts never reached the criterion and ran the 1500 epochs), 0.35 s for the two
#: mixtures alone, 0.17 s for the locality runs, 0.31 s for the four specialization runs;
#: full 0.44 s, 0.27 s (no run censored: runs stop at the criterion, so the 3000-epoch cap
#: costs little), 1.6 s and 3.2 s. The floor is the profile's former first look.
#: ``j91.specialization``'s proportions against 1 at tolerance 0.2
#: can be supported only from the exact Clopper-Pearson requirement on,
#: :math:`(\alpha/2)^{1/n} \ge 0.8`: 43 replicates at its level. Its quick budget is those 43
#: for the primary reading's runs (loss 1.3, 4 and 8 experts; the loss-1.1 runs beside them
#: at the floor, 6), measured after the speed-up of issue 46 (b) (2026-12-07, master seeds
#: 0-2, the same bits as before): 0.68x the former cost of the same runs, interleaved on the
#: same (then loaded) machine, i.e. about 0.11 s per replicate of the two loss-1.3 runs and
#: 0.10 s of the two loss-1.1 runs at the 0.31 s above: 43 x 0.11 + 6 x 0.10 = 5.3 s (the
#: pilot of 6 adds 0.65 s; the former 43 of all four runs took about 13 s). The full
#: profile's budget of 100 affords them (its 3.2 s per replicate predates the speed-up).
BUDGETS: dict[str, dict[str, tuple[int, int, int, float]]] = {
    "j91.specialization": {"quick": (6, 6, 43, 5.3), "full": (10, 50, 100, 320.0)},
    "j91.vowel.epochs": {"quick": (5, 5, 20, 11.8), "full": (10, 20, 60, 26.5)},
    "j91.vowel.scaling": {"quick": (5, 5, 30, 10.6), "full": (10, 20, 60, 16.2)},
    "j91.vowel.locality": {"quick": (5, 5, 15, 2.5), "full": (6, 12, 36, 57.0)},
}

#: Replicates per shared chunk of the epoch runs.
CHUNK = 5


def allowance(ctx: CheckContext, key: str, multiple: int = 1) -> Allowance:
    """The replicates of claim ``key`` (:data:`BUDGETS`) in the context's profile, its runs'
    sizes rounded up to ``multiple`` (:data:`CHUNK` for the shared epoch runs).

    Examples
    --------
    >>> a = allowance(CheckContext("j91.vowel.epochs", seed=0), "j91.vowel.epochs", CHUNK)
    >>> a.pilot, a.floor, a.budget, a.rounded(7)
    (5, 5, 20, 10)
    """
    return Allowance.of(BUDGETS, key, ctx.profile, multiple=multiple)


def epochs_seed(ctx: CheckContext, pilot: bool) -> int:
    """The seed of the epoch runs (the pilot's or the main run's), shared by the two claims."""
    return ctx.shared_seed(f"j91.vowel.epochs:{'pilot:' if pilot else ''}{ctx.profile}")


@shared(maxsize=64)
def _epochs_chunk(seed: int, model: str, width: int, chunk: int, criterion: float,
                  max_epochs: int) -> tuple[np.ndarray, np.ndarray]:
    """Epochs to ``criterion`` and whether reached, replicates ``chunk·CHUNK`` onwards."""
    from moetheory.jacobs.vowel import epochs_to_criterion

    idx = range(chunk * CHUNK, (chunk + 1) * CHUNK)
    res = epochs_to_criterion(model, width, [np.random.default_rng([seed, i]) for i in idx],
                              criterion, max_epochs)
    return res.epochs, res.reached


def epochs_runs(seed: int, configs: Sequence[tuple[str, int]], n: int, criterion: float,
                max_epochs: int) -> dict[str, np.ndarray]:
    """Epochs to the criterion of replicates ``0..n-1`` for every (model, size), paired by
    replicate (replicate ``i`` draws its data from ``default_rng([seed, i])``), with the
    censored runs under ``"<model>/<size>/censored"``.

    Raises
    ------
    ValueError
        If ``n`` is not a positive multiple of :data:`CHUNK`.
    """
    if n < CHUNK or n % CHUNK:
        raise ValueError(f"n must be a positive multiple of CHUNK = {CHUNK}, got {n}")
    chunks = range(n // CHUNK)
    # the other epoch claim needs some of the same chunks: each process trains those the
    # other is not training at that moment (each_shared), instead of waiting for them
    done = iter(each_shared(_epochs_chunk, [(seed, model, width, c, criterion, max_epochs)
                                            for model, width in configs for c in chunks]))
    out: dict[str, np.ndarray] = {}
    for model, width in configs:
        parts = [next(done) for _ in chunks]
        out[f"{model}/{width}"] = np.concatenate([p[0] for p in parts])
        out[f"{model}/{width}/censored"] = ~np.concatenate([p[1] for p in parts])
    return out
