"""The pytest plugin: every ``@claim`` check of a collected test file is a test item.

Installed with the package (entry point ``pytest11``, named ``moetheory.testing._plugin``),
so ``pytest`` loads it by itself; without the installed entry point, load it with
``pytest -p moetheory.testing._plugin`` or ``pytest_plugins = ["moetheory.testing._plugin"]``
in a ``conftest.py``; ``-p no:moetheory.testing._plugin`` turns it off.

- A check registered with ``@claim`` in a file pytest collects (``test_*.py``,
  ``*_test.py`` or a file named on the command line) is an item named by its claim ID, also
  one registered in a loop (``for k in ...: claim(f"mine.{k}", ...)(make(k))``) or whose
  check names another module; the verdict is the one ``verify`` would report (the check's
  outcome through the same validation). It
  passes on ``proved`` / ``supported`` and fails on ``refuted`` / ``unsupported`` with the
  summary, counterexample and evidence in the message; a check that raises fails with its
  traceback. ``inconclusive`` is skipped by default (``--moetheory-inconclusive=fail``,
  ``xfail`` or ``pass`` otherwise). Claims a test file imports from elsewhere, and the
  catalogue's own claims, are not items there.
- The check runs in pytest's process with the context ``moetheory verify --seed SEED
  --profile PROFILE`` gives it (``--moetheory-seed``, ``--moetheory-profile``; default 0 and
  quick), so both give the same verdict. Markers on the check apply to the item.
- Fixtures: ``moetheory_ctx`` (a :class:`~moetheory.engine.context.CheckContext` for the
  test) and ``moetheory_claims`` (a :class:`~moetheory.testing.TemporaryClaims`).
- The same settings as ini options: ``moetheory_profile``, ``moetheory_seed``,
  ``moetheory_inconclusive``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _pytest
import pluggy
import pytest

from moetheory.engine.catalogue import catalogue_spec
from moetheory.engine.context import PROFILES, CheckContext
from moetheory.engine.registry import BUILTIN_FAMILY, Claim, get_claim, registered, unregister
from moetheory.engine.verdicts import Verdict, outcome_payload
from moetheory.testing._assert import (
    PASSING,
    TemporaryClaims,
    VerdictError,
    check_context,
    failure_message,
    run_claim,
)

#: What an inconclusive verdict does to its item.
INCONCLUSIVE_MODES = ("skip", "fail", "xfail", "pass")

_DEFAULTS = {"profile": "quick", "seed": "0", "inconclusive": "skip"}
_BEFORE = pytest.StashKey[set[str]]()
_SEEN = pytest.StashKey[set[str]]()
_MODULES = pytest.StashKey[set[str]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("moetheory", "moetheory: claims as tests")
    group.addoption("--moetheory-profile", choices=PROFILES, default=None,
                    help="budget of the claims' checks (default quick; ini moetheory_profile)")
    group.addoption("--moetheory-seed", default=None, metavar="N",
                    help="master seed of the claims' checks (default 0; ini moetheory_seed)")
    group.addoption("--moetheory-inconclusive", choices=INCONCLUSIVE_MODES, default=None,
                    help="what an inconclusive claim does: skip (default), fail, xfail or "
                    "pass (ini moetheory_inconclusive)")
    parser.addini("moetheory_profile", "budget of the claims' checks: quick or full",
                  default=_DEFAULTS["profile"])
    parser.addini("moetheory_seed", "master seed of the claims' checks",
                  default=_DEFAULTS["seed"])
    parser.addini("moetheory_inconclusive", "what an inconclusive claim does: skip, fail, "
                  "xfail or pass", default=_DEFAULTS["inconclusive"])


def _setting(config: pytest.Config, name: str) -> str:
    value = config.getoption(f"moetheory_{name}")
    return str(value if value is not None else config.getini(f"moetheory_{name}"))


def _settings(config: pytest.Config) -> tuple[str, int, str]:
    """``(profile, seed, inconclusive)``, checked (a bad one is a usage error)."""
    profile = _setting(config, "profile")
    if profile not in PROFILES:
        raise pytest.UsageError(f"moetheory_profile must be one of {PROFILES}, got {profile!r}")
    text = _setting(config, "seed")
    if not (text.strip().isascii() and text.strip().isdigit()):  # not "²": int() refuses it
        raise pytest.UsageError(f"--moetheory-seed must be an integer >= 0, got {text!r}")
    mode = _setting(config, "inconclusive")
    if mode not in INCONCLUSIVE_MODES:
        raise pytest.UsageError(
            f"moetheory_inconclusive must be one of {INCONCLUSIVE_MODES}, got {mode!r}"
        )
    return profile, int(text), mode


def pytest_configure(config: pytest.Config) -> None:
    _settings(config)
    config.stash[_BEFORE] = {c.id for c in registered()}
    config.stash[_SEEN] = set()
    config.stash[_MODULES] = set()
    config.addinivalue_line(
        "markers", "moetheory_claim(id): a claim's check collected as a test item"
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    """Forget the claims the collected test files registered (an in-process run's
    registry stays as it was)."""
    before = config.stash.get(_BEFORE, set())
    modules = config.stash.get(_MODULES, set())
    items = config.stash.get(_SEEN, set())
    for c in registered():
        if c.id in before or catalogue_spec(c.id) is not None:
            continue
        if ((c.family != BUILTIN_FAMILY and getattr(c.check, "__module__", None) in modules)
                or any(key.endswith("::" + c.id) for key in items)):
            unregister(c.id)


def _defined_in(check: object, module: Any) -> bool | None:
    """Whether ``check`` is defined in ``module`` (``None`` when it cannot be told: no code
    object and no module of its own)."""
    code = getattr(check, "__code__", None)
    file = getattr(module, "__file__", None)
    if code is not None and file is not None:
        return Path(code.co_filename).resolve() == Path(file).resolve()
    name = getattr(check, "__module__", None)
    if isinstance(name, str) and name != "functools":
        return name == module.__name__
    return None


def _is_package_module(module: Any) -> bool:
    """Whether ``module`` is a file of moetheory or of its catalogue (``proofs_checks``): pytest
    collects them for their doctests, and the checks they register are the catalogue's own,
    never a test file's claims."""
    import moetheory
    import proofs_checks

    file = getattr(module, "__file__", None)
    if not file:
        return False
    path = Path(file).resolve()
    return any(path.is_relative_to(Path(str(pkg.__file__)).resolve().parent)
               for pkg in (moetheory, proofs_checks))


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    """Every claim a collected test file registers is an item, also one registered in a
    loop (no module attribute names its check) or whose check claims another module."""
    if not isinstance(collector, pytest.Module):
        yield
        return
    before = {c.id for c in registered()}
    outcome: Any = yield
    report: pytest.CollectReport = outcome.get_result()
    if report.outcome != "passed":
        return
    module = collector.obj
    if _is_package_module(module):  # the catalogue's own modules (their doctests)
        return
    seen = collector.config.stash[_SEEN]
    for c in registered():
        here = _defined_in(c.check, module)
        if catalogue_spec(c.id) is not None:
            if here:  # a test file that replaced a catalogued check: an error, not a skip
                report.outcome = "failed"
                report.longrepr = (f"{collector.nodeid}: registers a check of its own for the "
                                   f"catalogued claim {c.id!r}; give it an ID of its own")
                return
            continue
        if f"{collector.nodeid}::{c.id}" in seen:
            continue
        if here or (here is None and c.id not in before):
            seen.add(f"{collector.nodeid}::{c.id}")
            report.result.append(ClaimItem.from_parent(collector, name=c.id, claim_id=c.id))


def _claims_of(obj: Any, module_name: str) -> list[Claim]:
    """The user's claims whose check is ``obj``, defined in the module collected."""
    if not callable(obj) or getattr(obj, "__module__", None) != module_name:
        return []
    return [c for c in registered() if c.check is obj and c.family != BUILTIN_FAMILY]


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(
    collector: pytest.Module | pytest.Class, name: str, obj: object
) -> list[ClaimItem] | None:
    if not isinstance(collector, pytest.Module):
        return None
    module = collector.obj.__name__
    collector.config.stash[_MODULES].add(module)
    claims = _claims_of(obj, module)
    if not claims:
        return None
    seen = collector.config.stash[_SEEN]
    items = []
    for c in claims:
        key = f"{collector.nodeid}::{c.id}"
        if key not in seen:  # the same check under two names in the module: one item
            seen.add(key)
            items.append(ClaimItem.from_parent(collector, name=c.id, claim_id=c.id))
    return items


class ClaimFailed(VerdictError):
    """A claim item's verdict was not a passing one."""


class ClaimItem(pytest.Item):
    """A registered claim's check as a test item (see the module's docstring)."""

    def __init__(self, *, claim_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim_id = claim_id
        self.outcome: Any = None
        check = get_claim(claim_id).check
        for mark in getattr(check, "pytestmark", []):  # @pytest.mark... on the check
            if isinstance(mark, pytest.Mark):
                self.own_markers.append(mark)
                self.keywords[mark.name] = mark
        self.add_marker(pytest.mark.moetheory_claim(claim_id))

    def runtest(self) -> None:
        profile, seed, mode = _settings(self.config)
        outcome = run_claim(get_claim(self.claim_id), profile=profile, seed=seed)
        self.outcome = outcome
        entry = outcome_payload(outcome)  # the verdict verify would report, as data
        verdict = Verdict(entry["verdict"])
        self.user_properties.append(("verdict", entry["verdict"]))
        if verdict in PASSING or (verdict is Verdict.INCONCLUSIVE and mode == "pass"):
            return
        message = failure_message(entry, name=f"claim {self.claim_id}")
        reason = entry["evidence"].get("reason")
        summary = entry["summary"]
        why = f"claim {self.claim_id} inconclusive: {summary}" + (
            f" ({reason})" if isinstance(reason, str) and reason != summary else "")
        if verdict is Verdict.INCONCLUSIVE and mode == "skip":
            _skip_here(why)
        if verdict is Verdict.INCONCLUSIVE and mode == "xfail":
            pytest.xfail(why)
        raise ClaimFailed(message, entry)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        # the check raised: show its frames, not the plugin's or pytest's
        ours = (str(Path(__file__).parent), str(Path(pytest.__file__).parent),
                str(Path(_pytest.__file__).parent), str(Path(pluggy.__file__).parent))
        kept = excinfo.traceback.filter(lambda e: not str(e.path).startswith(ours))
        if len(kept):
            excinfo.traceback = kept
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        code = getattr(get_claim(self.claim_id).check, "__code__", None)
        line = code.co_firstlineno - 1 if code is not None else None
        return self.path, line, f"claim {self.claim_id}"


def _skip_here(reason: str) -> None:
    """Skip, reported at the claim's check rather than inside the plugin."""
    try:
        exc = pytest.skip.Exception(reason, _use_item_location=True)  # type: ignore[call-arg]
    except TypeError:  # pragma: no cover - a pytest without the option
        exc = pytest.skip.Exception(reason)
    raise exc


@pytest.fixture
def moetheory_ctx(request: pytest.FixtureRequest) -> CheckContext:
    """A check context for this test: its own seed (from ``--moetheory-seed`` and the test's
    node ID), the profile of ``--moetheory-profile``, error level 0.05."""
    profile, seed, _ = _settings(request.config)
    return check_context(request.node.nodeid, profile=profile, seed=seed)


@pytest.fixture
def moetheory_claims() -> Iterator[TemporaryClaims]:
    """Register claims for this test: ``moetheory_claims("mine.x", check, statement=...)``
    (or as a decorator); they, and any claim the test registers with ``@claim``, are
    removed afterwards."""
    with TemporaryClaims() as claims:
        yield claims
