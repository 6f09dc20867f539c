"""The coverage ledger: pages equal a fresh generation; every audit row is accounted for.

The audit list lives in ``../shared/audit-rows.md`` relative to the repository root (CI keeps
a copy of ``shared/`` beside the clone; ``MOETHEORY_SHARED`` points elsewhere); the tests that
need it are skipped without it.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace as NS

import pytest

from moetheory.engine import ledger
from moetheory.engine._ledger_data import UNCHECKED
from moetheory.engine.catalogue import SEED_FILES
from moetheory.engine.registry import load_checks, registered

ROOT = Path(__file__).resolve().parents[1]
#: ``shared/`` beside the clone; the environment variable MOETHEORY_SHARED overrides it.
SHARED = Path(os.environ.get("MOETHEORY_SHARED", str(ROOT.parent / "shared")))
AUDIT = SHARED / "audit-rows.md"
SEEDS = SHARED / "seeds"
LEDGER_DIR = ROOT / "docs" / "ledger"

needs_audit = pytest.mark.skipif(
    not AUDIT.is_file(), reason=f"audit list {AUDIT} is absent (shared/ is not beside the clone)"
)


@pytest.fixture(scope="module")
def claims() -> list:  # type: ignore[type-arg]
    load_checks()
    return registered()


def test_committed_pages_equal_fresh_generation(claims: list) -> None:  # type: ignore[type-arg]
    pages = ledger.generate_ledger_pages(ledger.build_ledger(claims), claims)
    for name, text in pages.items():
        path = LEDGER_DIR / name
        hint = "run python -m moetheory.engine.ledger --out docs/ledger"
        assert path.is_file(), f"{path} missing: {hint}"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is stale: run python -m moetheory.engine.ledger --out docs/ledger"
        )
    assert sorted(p.name for p in LEDGER_DIR.glob("*.md")) == sorted(pages)


def test_check_mode_flags_a_stale_page(tmp_path: Path) -> None:
    assert ledger.main(["--out", str(tmp_path)]) == 0
    assert ledger.main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "seed-003.md").write_text("edited by hand\n", encoding="utf-8")
    assert ledger.main(["--out", str(tmp_path), "--check"]) == 1


def test_build_groups_claims_and_reasons_by_line_range() -> None:
    seed = "003_3078ccb5100b14b7.txt"
    a = NS(id="a", sources=(NS(seed_file=seed, lines=(74,)),), covers=("003-12", "002-01"))
    b = NS(id="b", sources=(NS(seed_file=seed, lines=(74,)),), covers=())
    rows = [("003-own-1", seed, (243, 247), "hardware of the authors")]
    book = ledger.build_ledger([a, b], rows)
    entries = book[seed]
    assert [(e.lines, e.claims, e.keys) for e in entries] == [
        ((74,), ["a", "b"], ["003-12"]),
        ((243, 247), [], ["003-own-1"]),
    ]
    assert entries[1].reasons == ["003-own-1: hardware of the authors"]
    assert set(book) == set(SEED_FILES)
    page = ledger.render_ledger_page(seed, entries)
    assert "| L74 | 003-12 | `a`, `b` | — |" in page
    assert "| L243, L247 | 003-own-1 | — | 003-own-1: hardware of the authors |" in page


@pytest.mark.parametrize(
    "row, message",
    [
        (("k", "nope.txt", (1,), "r"), "unknown seed file"),
        (("k", "003_3078ccb5100b14b7.txt", (), "r"), "1-based"),
        (("k", "003_3078ccb5100b14b7.txt", (0,), "r"), "1-based"),
        (("k", "003_3078ccb5100b14b7.txt", (3,), " "), "reason"),
    ],
)
def test_bad_unchecked_rows_are_clear_errors(row: tuple, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        ledger.unchecked_rows([row])


def test_unchecked_data_is_valid() -> None:
    rows = ledger.unchecked_rows(UNCHECKED)
    assert len({r.key for r in rows}) == len(rows)


def test_uncovered_rows_are_found() -> None:
    rows = [ledger.AuditRow("003-12", False, "L74", "x"), ledger.AuditRow("003-13", False, "", "")]
    claims = [NS(id="c", sources=(), covers=("003-12",))]
    assert ledger.uncovered_audit_rows(rows, claims, []) == ["003-13"]
    explained = [("003-13", "003_3078ccb5100b14b7.txt", (9,), "r")]
    assert ledger.uncovered_audit_rows(rows, claims, explained) == []


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"seeds {SEEDS} are absent")
def test_every_source_line_exists_in_its_seed(claims: list) -> None:  # type: ignore[type-arg]
    lengths = {
        seed: len((SEEDS / seed).read_text(encoding="utf-8").splitlines()) for seed in SEED_FILES
    }
    bad = [
        (c.id, s.seed_file, n)
        for c in claims for s in c.sources for n in s.lines if n > lengths[s.seed_file]
    ]
    bad += [(r.key, r.seed_file, n) for r in ledger.unchecked_rows() for n in r.lines
            if n > lengths[r.seed_file]]
    assert not bad, f"line numbers beyond the end of their seed: {bad}"


def test_covers_name_audit_keys(claims: list) -> None:  # type: ignore[type-arg]
    bad = [(c.id, k) for c in claims for k in c.covers if not ledger._ROW.match(f"| {k} | |")]
    assert not bad


def _rows_of(prefix: str) -> list[ledger.AuditRow]:
    return [r for r in ledger.read_audit_rows(AUDIT) if r.key.startswith(prefix + "-")]


def _assert_covered(rows: list[ledger.AuditRow], claims: list, what: str) -> None:  # type: ignore[type-arg]
    assert rows, f"no audit rows for {what} in {AUDIT}"
    missing = ledger.uncovered_audit_rows(rows, claims)
    assert not missing, (
        f"audit rows of {what} neither covered by a claim's `covers` nor given a reason in "
        f"moetheory/engine/_ledger_data.py UNCHECKED: {missing}"
    )


@needs_audit
def test_every_seed_003_row_is_covered_or_explained(claims: list) -> None:  # type: ignore[type-arg]
    _assert_covered(_rows_of("003"), claims, "seed 003")


@needs_audit
@pytest.mark.parametrize("prefix", ["000", "001", "002"])
def test_every_audit_row_is_covered_or_explained(prefix: str, claims: list) -> None:  # type: ignore[type-arg]
    _assert_covered(_rows_of(prefix), claims, f"seed {prefix}")


@needs_audit
def test_audit_keys_belong_to_known_seeds() -> None:
    for row in ledger.read_audit_rows(AUDIT):
        assert ledger.seed_file_for_key(row.key) in SEED_FILES


def test_index_lists_claims_without_provenance() -> None:
    seed = "003_3078ccb5100b14b7.txt"
    a = NS(id="a", sources=(NS(seed_file=seed, lines=(74,)),), covers=(), origin="seed")
    b = NS(id="b", sources=(), covers=(), origin="seed")
    c = NS(id="c", sources=(), covers=(), origin="package")
    pages = ledger.generate_ledger_pages(None, [a, b, c])
    assert "- `b`" in pages["index.md"] and "- `c`" not in pages["index.md"]
    pages = ledger.generate_ledger_pages(None, [a])
    assert "Every registered claim records the seed lines it checks." in pages["index.md"]


def test_every_continual_learning_claim_records_its_seed_lines(claims: list) -> None:  # type: ignore[type-arg]
    missing = [c.id for c in claims if c.id.startswith("cl.") and not c.sources]
    assert not missing, f"cl.* claims without sources: {missing}"
    seed = "003_3078ccb5100b14b7.txt"
    assert all(s.seed_file == seed for c in claims if c.id.startswith("cl.") for s in c.sources)


def test_reasons_carry_their_maths_as_markup() -> None:
    """Issue 45 item 4: a reason's formula is typeset (``$...$``) where it is written; the
    words left outside maths and code hold no plain-text formula."""
    from test_docs_scan import markdown_formulas

    for key, _, _, reason in UNCHECKED:
        assert not markdown_formulas(reason), (key, markdown_formulas(reason))
