"""Shared fixtures: claims registered for the duration of one test."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest
from _docs_site import SITE_FIXTURES
from _runs import OLD_REPORT, marker_check
from hypothesis import settings

from moetheory import CheckContext, Outcome
from moetheory.engine.registry import load_checks
from moetheory.testing import TemporaryClaims

# Hypothesis: the same examples on every run and machine (derandomized, no example database),
# and a failure prints the ``@reproduce_failure`` blob that replays it. For a random search,
# run with ``HYPOTHESIS_PROFILE=explore`` (or pytest's ``--hypothesis-profile explore``).
settings.register_profile("moetheory", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "moetheory"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put every test that needs the documentation site in the slow tier.

    Runs before ``-m`` selects, so the README's ``pytest`` (``-m 'not slow'`` from the
    configuration) leaves these tests out and ``pytest -m slow`` runs them.
    """
    for item in items:
        if SITE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def temp_claims() -> Iterator[Callable[..., None]]:
    """Register throw-away claims (IDs under ``test.``) and remove them afterwards.

    The package's own tests use the catalogue, so it is loaded first; a user's tests have
    the public fixture ``moetheory_claims`` of the plugin (``moetheory.testing``).
    """
    load_checks()
    with TemporaryClaims(reading="test reading", seed_files=["test"], section="Tests") as claims:

        def add(claim_id: str, check: Callable[[CheckContext], Outcome], **kw: object) -> None:
            kw.setdefault("statement", f"test statement {claim_id}")
            claims(claim_id, check, **kw)

        yield add


@pytest.fixture
def marker(temp_claims, tmp_path):  # type: ignore[no-untyped-def]
    """A claim ``test.marker`` whose check leaves a file behind when it runs."""
    path = tmp_path / "ran"
    temp_claims("test.marker", marker_check(path))
    return path


@pytest.fixture
def old_reports(tmp_path):  # type: ignore[no-untyped-def]
    """A JSON and a Markdown report left by an earlier run."""
    j, m = tmp_path / "old.json", tmp_path / "old.md"
    j.write_text(OLD_REPORT)
    m.write_text(OLD_REPORT)
    return j, m
