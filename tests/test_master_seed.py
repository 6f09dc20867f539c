"""Every statistical check draws its randomness from the run's master seed.

``moetheory verify --seed s`` must change the data of every statistical check: otherwise a
report "under seed s" silently reuses one fixed sample, seed stability holds trivially, and
calibration over master seeds repeats a single run. The test intercepts the first random
sources a check creates (``numpy.random.default_rng`` or ``numpy.random.SeedSequence``; a
check may first build a fixed exact instance), stops the check at the third, and compares
their entropies under two master seeds.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
import pytest

from moetheory.engine.registry import get_claim, load_checks, registered
from moetheory.engine.runner import RunSettings, claim_context

load_checks()
STATISTICAL = sorted(c.id for c in registered() if c.kind == "statistical")


#: Random sources recorded before the check is stopped.
SOURCES = 3


class _Stop(Exception):
    """Raised at the SOURCES-th random source a check creates."""


def _clear_caches() -> None:
    """Empty every cache of the check modules, ``functools.lru_cache`` and
    :func:`moetheory.engine.shared.shared` alike (a cache hit draws nothing)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(("proofs_checks", "moetheory")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper) or callable(
                    getattr(value, "cache_clear", None)):
                value.cache_clear()


def _entropies(claim_id: str, master: int, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    real_rng, real_ss = np.random.default_rng, np.random.SeedSequence

    def recorder(kind: str) -> object:
        return lambda arg=None, *rest, **kw: record(kind, arg, *rest, **kw)

    def record(kind: str, arg: object = None, *rest: object, **kw: object) -> object:
        value = arg.entropy if isinstance(arg, real_ss) else arg
        seen.append(value.tolist() if isinstance(value, np.ndarray) else value)
        if len(seen) == SOURCES:
            raise _Stop
        return real_ss(arg, *rest, **kw) if kind == "ss" else real_rng(arg, *rest, **kw)

    monkeypatch.setattr(np.random, "default_rng", recorder("rng"))
    monkeypatch.setattr(np.random, "SeedSequence", recorder("ss"))
    _clear_caches()
    ctx = claim_context(claim_id, RunSettings(seed=master, profile="quick"))
    try:
        get_claim(claim_id).check(ctx)
    except _Stop:
        pass
    finally:
        monkeypatch.setattr(np.random, "default_rng", real_rng)
        monkeypatch.setattr(np.random, "SeedSequence", real_ss)
    assert seen, f"{claim_id}: no random source created (a statistical check draws data)"
    return seen


@pytest.mark.parametrize("claim_id", STATISTICAL)
def test_statistical_check_depends_on_master_seed(claim_id: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    a = _entropies(claim_id, 0, monkeypatch)
    b = _entropies(claim_id, 1, monkeypatch)
    assert a != b, (f"{claim_id}: its first random sources have entropies {a!r} under master "
                    "seeds 0 and 1 alike (fixed data: --seed does not reach it)")
