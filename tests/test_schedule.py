"""The order a local run starts its checks in, and the table of expected seconds behind it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from moetheory.engine import _schedule
from moetheory.engine._costs import EXPECTED_SECONDS
from moetheory.engine.context import PROFILES
from moetheory.engine.registry import load_checks, select_claims

ROOT = Path(__file__).resolve().parents[1]


def _claim(claim_id: str, kind: str = "statistical", module: str = "m") -> Any:
    check = SimpleNamespace(__module__=module)
    return SimpleNamespace(id=claim_id, kind=kind, check=check)


def _ids(order: list[Any]) -> list[str]:
    return [c.id for c in order]


def _schedule_script() -> Any:
    spec = importlib.util.spec_from_file_location("schedule", ROOT / "benchmarks" / "schedule.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["schedule"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("profile", PROFILES)
def test_the_cost_table_covers_every_statistical_claim(profile: str) -> None:
    """A statistical claim missing from the table starts first as if it were the longest
    (benchmarks/schedule.py regenerates the table from reports)."""
    load_checks()
    table = EXPECTED_SECONDS[profile]
    missing = [c.id for c in select_claims(None) if c.kind == "statistical" and c.id not in table]
    assert missing == []
    assert all(v >= 0 for v in table.values())


def test_the_longest_checks_start_first() -> None:
    claims = [_claim("a", module="m1"), _claim("b", "exact", "m2"), _claim("c", module="m3"),
              _claim("d", "exact", "m4")]
    costs = {"quick": {"a": 1.0, "b": 9.0, "c": 5.0, "d": 0.5}}
    assert _ids(_schedule.start_order(claims, "quick", 1, costs)) == ["b", "c", "a", "d"]
    # another profile's table does not apply: without a cost, statistical first, in order
    assert _ids(_schedule.start_order(claims, "full", 1, costs)) == ["a", "c", "b", "d"]


def test_a_claim_without_a_cost_starts_first_if_statistical_last_if_exact() -> None:
    claims = [_claim("known", module="m1"), _claim("new.exact", "exact", "m2"),
              _claim("new.sim", module="m3")]
    order = _schedule.start_order(claims, "quick", 2, {"quick": {"known": 100.0}})
    assert _ids(order) == ["new.sim", "known", "new.exact"]


def test_checks_of_one_module_do_not_start_side_by_side() -> None:
    """Neighbours in the catalogue often share results (moetheory.engine.shared): started
    side by side, one waited for the other's (a quick run's five rates checks left a core
    idle for about 10 s). On two workers, the next check is the longest of another module
    than the one just started, unless only that module is left."""
    claims = [_claim("r1", module="rates"), _claim("r2", module="rates"),
              _claim("r3", module="rates"), _claim("x", module="other"),
              _claim("y", module="third")]
    costs = {"quick": {"r1": 50.0, "r2": 40.0, "r3": 30.0, "x": 5.0, "y": 1.0}}
    assert _ids(_schedule.start_order(claims, "quick", 2, costs)) == ["r1", "x", "r2", "y", "r3"]
    # three workers: apart from the last two started
    assert _ids(_schedule.start_order(claims, "quick", 3, costs)) == ["r1", "x", "y", "r2", "r3"]
    # one worker: nothing runs side by side, the longest first
    assert _ids(_schedule.start_order(claims, "quick", 1, costs)) == ["r1", "r2", "r3", "x", "y"]


def test_the_start_order_of_the_catalogue_is_a_permutation_longest_first() -> None:
    load_checks()
    claims = select_claims(None)
    for profile in PROFILES:
        order = _schedule.start_order(claims, profile, 2)
        assert sorted(_ids(order)) == sorted(c.id for c in claims)
        table = EXPECTED_SECONDS[profile]
        assert order[0].id == max(table, key=table.__getitem__)
        modules = [c.check.__module__ for c in order]
        for i in range(1, len(order)):  # side by side only when no other module is left
            if modules[i] == modules[i - 1]:
                assert set(modules[i:]) == {modules[i]}, order[i].id


def test_the_schedule_simulation_is_list_scheduling() -> None:
    schedule = _schedule_script()
    # two workers: a and b start at 0; c starts when b ends (2) and ends at 4
    assert schedule.makespan(["a", "b", "c"], {"a": 3.0, "b": 2.0, "c": 2.0}, 2) == 4.0
    # the longest last leaves a worker idle: 2 + 3 = 5
    assert schedule.makespan(["b", "c", "a"], {"a": 3.0, "b": 2.0, "c": 2.0}, 2) == 5.0
    assert schedule.makespan(["a", "b"], {"a": 3.0, "b": 2.0}, 1) == 5.0
    # a worker with no claim left helps a divisible one: a runs alone 1 s, then with two
    assert schedule.makespan(["a", "b"], {"a": 5.0, "b": 1.0}, 2, frozenset({"a"})) == 3.0
