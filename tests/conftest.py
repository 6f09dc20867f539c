"""Shared fixtures: claims registered for the duration of one test."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from moetheory import CheckContext, Outcome, claim
from moetheory.engine.registry import load_checks, unregister


@pytest.fixture
def temp_claims() -> Iterator[Callable[..., None]]:
    """Register throw-away claims (IDs under ``test.``) and remove them afterwards."""
    load_checks()
    added: list[str] = []

    def add(claim_id: str, check: Callable[[CheckContext], Outcome], **kw: object) -> None:
        kw.setdefault("reading", "test reading")
        kw.setdefault("statement", f"test statement {claim_id}")
        kw.setdefault("seed_files", ["test"])
        kw.setdefault("section", "Tests")
        claim(claim_id, **kw)(check)  # type: ignore[arg-type]
        added.append(claim_id)

    yield add
    for cid in added:
        unregister(cid)
