"""The package's one time-limit mechanism, as its three users call it."""

from __future__ import annotations

import signal
import time

import pytest

from moetheory.symbolic import _interaction_budget, _router_pde_deadline, _time_limit


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        _time_limit.check_time()


def test_each_block_raises_its_own_error() -> None:
    with pytest.raises(_time_limit.TimeLimitExceeded, match=r"time limit of 0\.05 s reached"):
        with _time_limit.time_limit(0.05):
            _spin(5)
    with pytest.raises(_interaction_budget.SearchTimeout, match="relation search ran out"):
        with _interaction_budget.time_limit(0.05):
            _spin(5)
    assert issubclass(_interaction_budget.SearchTimeout, TimeoutError)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_time_up_passes_through_except_exception() -> None:
    caught = []
    with pytest.raises(_router_pde_deadline.TimeUp):
        with _router_pde_deadline.time_limit(0.05) as deadline:
            try:
                time.sleep(5)
            except Exception as exc:  # what SymPy's own handlers do
                caught.append(exc)
            deadline.check()
    assert caught == []
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_the_earliest_deadline_raises_its_error_in_a_nested_block() -> None:
    with pytest.raises(_interaction_budget.SearchTimeout):
        with _time_limit.time_limit(30):
            with _interaction_budget.time_limit(0.05):
                _spin(5)
    with pytest.raises(_time_limit.TimeLimitExceeded) as info:
        with _time_limit.time_limit(0.05):
            with _interaction_budget.time_limit(30):
                _spin(5)
    assert not isinstance(info.value, _interaction_budget.SearchTimeout)
