"""The package's one time-limit mechanism, as its three users call it."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext

import pytest

from moetheory.symbolic import _time_limit
from moetheory.symbolic.relations import _budget
from moetheory.symbolic.router_pde import _deadline


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        _time_limit.check_time()


def test_each_block_raises_its_own_error() -> None:
    with pytest.raises(_time_limit.TimeLimitExceeded, match=r"time limit of 0\.05 s reached"):
        with _time_limit.time_limit(0.05):
            _spin(5)
    with pytest.raises(_budget.SearchTimeout, match="relation search ran out"):
        with _budget.time_limit(0.05):
            _spin(5)
    assert issubclass(_budget.SearchTimeout, TimeoutError)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_time_up_passes_through_except_exception() -> None:
    caught = []
    with pytest.raises(_deadline.TimeUp):
        deadline = _deadline.Deadline(0.05)
        with _deadline.time_limit(0.05):
            try:
                time.sleep(5)
            except Exception as exc:  # what SymPy's own handlers do
                caught.append(exc)
            deadline.check()
    assert caught == []
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_the_earliest_deadline_raises_its_error_in_a_nested_block() -> None:
    with pytest.raises(_budget.SearchTimeout):
        with _time_limit.time_limit(30):
            with _budget.time_limit(0.05):
                _spin(5)
    with pytest.raises(_time_limit.TimeLimitExceeded) as info:
        with _time_limit.time_limit(0.05):
            with _budget.time_limit(30):
                _spin(5)
    assert not isinstance(info.value, _budget.SearchTimeout)


def _restore_alarm_state() -> None:
    """Leave no deadline, timer or handler behind, whatever the test did."""
    _time_limit._LOCAL.deadlines.clear()
    _time_limit._SIGNAL_OWNER.clear()
    signal.setitimer(signal.ITIMER_REAL, 0.0, 0.0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)


def _alarm_inside(monkeypatch: pytest.MonkeyPatch, name: str, when: Callable[..., bool]) -> None:
    """Run the alarm handler inside ``signal.<name>`` the way a real SIGALRM would land there.

    A real alarm lands at any bytecode; on a loaded machine it landed in the clean-up of a
    block whose deadline had passed (CI, 2026-12-03), and 30 later doctests failed.
    """
    real = getattr(signal, name)

    def alarmed(*args: object) -> object:
        if when(*args):
            _time_limit._on_alarm(signal.SIGALRM, sys._getframe(1))
        return real(*args)

    monkeypatch.setattr(signal, name, alarmed)


@contextmanager
def _leaves_no_deadline(monkeypatch: pytest.MonkeyPatch,
                        error: type[BaseException]) -> Iterator[None]:
    """The block raises ``error`` and leaves no deadline behind; the patches and the alarm
    state are undone whatever happens."""
    try:
        with pytest.raises(error):
            yield
        left = list(_time_limit._LOCAL.deadlines)
    finally:
        monkeypatch.undo()
        _restore_alarm_state()
    assert left == []


@pytest.mark.parametrize("nested", [False, True])
def test_an_alarm_during_the_clean_up_leaves_no_deadline_behind(
    monkeypatch: pytest.MonkeyPatch, nested: bool
) -> None:
    with _leaves_no_deadline(monkeypatch, _budget.SearchTimeout):
        with _time_limit.time_limit(30) if nested else nullcontext():
            with _budget.time_limit(0.05):
                _alarm_inside(monkeypatch, "pthread_sigmask",
                              lambda how, mask: how == signal.SIG_BLOCK)
                _spin(5)
    with _time_limit.time_limit(30):
        _time_limit.check_time()  # nothing stale raises


def test_an_alarm_while_entering_leaves_no_deadline_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _alarm_inside(monkeypatch, "setitimer", lambda which, delay, interval=0.0: delay > 0)
    with _leaves_no_deadline(monkeypatch, _time_limit.TimeLimitExceeded):
        with _time_limit.time_limit(1e-9):
            monkeypatch.undo()
            _spin(5)
