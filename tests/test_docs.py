"""The documentation: claim pages generated from a verification run, the Sphinx build, and
every built page as a reader sees it.

* the claim pages are a pure function of the report and are generated at build time (never
  committed, so no machine-dependent digit is), organised by paper -- a chapter index per
  paper, one page per section of the paper, every claim placed by its paper's sections, old
  ``<chapter>.html#<claim>`` links forwarded -- each claim in the order
  statement → reading → derivation → verdict → evidence;
* every page stays small: under 1 MB, a claim page under 0.5 MB;
* ``sphinx-build -W`` succeeds from pip-installed packages alone (MathJax from PyPI,
  intersphinx offline), and ``moetheory.verify`` / ``moetheory.claim`` are in the inventory;
* every built page passes the rendering checks: no stray ``$``, no raw TeX or SymPy syntax in
  the prose, no prose set as maths; in headless Chromium, every formula is typeset by
  MathJax without error (skipped without ``/usr/bin/chromium``).

The whole verification runs once per test session (``fresh_report``); the Sphinx build
reuses that report through ``MOETHEORY_DOCS_REPORT``.
"""

from __future__ import annotations

import concurrent.futures
import functools
import http.server
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import _docs_site
import pytest

from moetheory import docs as docs_gen
from moetheory.engine.catalogue import SEED_FILES
from moetheory.engine.mathtext import has_code_syntax
from moetheory.engine.papers import PAPERS, paper_of
from moetheory.engine.registry import load_checks, registered

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CHROMIUM = Path("/usr/bin/chromium")


# -- fixtures -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def report_path() -> Path:
    """A fresh verification run with the settings of the documentation build (shared with
    ``test_docs_scan.py`` through ``_docs_site``; made once per test process)."""
    return _docs_site.report_path()


@pytest.fixture(scope="session")
def fresh_report(report_path: Path) -> dict:
    return json.loads(report_path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def pages(fresh_report: dict) -> dict[str, str]:
    return docs_gen.generate_pages(
        fresh_report, DOCS / "claims", DOCS / "_static" / "figures", docs_gen.SEEDS_DIR
    )


@pytest.fixture(scope="session")
def built_html() -> Path:
    """The site built with ``sphinx-build -W`` into a temporary folder, offline."""
    return _docs_site.built_site_or_skip()


def _sections(page: str) -> dict[str, str]:
    """Claim ID -> its section of a generated paper page."""
    parts = re.split(r"^### `([^`]+)`$", page, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _claim_text(pages: dict[str, str], entry: dict) -> str:
    """A claim's section of the page :func:`docs_gen.claim_page_name` names."""
    return _sections(pages[docs_gen.claim_page_name(entry["id"], entry["seed_file"])])[
        entry["id"]
    ]


def _section_pages(pages: dict[str, str]) -> list[str]:
    return [docs_gen.section_page_name(p, s) for p in PAPERS for s in p.parts]


# -- generated pages ------------------------------------------------------------------


def test_claim_pages_are_generated_at_build_time_not_committed() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "docs/claims", "docs/api"], cwd=ROOT, capture_output=True,
        text=True, check=True,
    ).stdout.split()
    assert tracked == [], "generated pages must not be committed (they hold machine digits)"
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "docs/claims/" in ignored and "docs/api/" in ignored


def test_pages_are_a_pure_function_of_the_report(fresh_report: dict, pages: dict) -> None:
    again = docs_gen.generate_pages(
        json.loads(json.dumps(fresh_report)), DOCS / "claims", DOCS / "_static" / "figures"
    )
    assert again == pages
    slower = {**fresh_report, "claims": [{**e, "seconds": 1e6} for e in fresh_report["claims"]]}
    assert docs_gen.generate_pages(slower, DOCS / "claims", DOCS / "_static" / "figures") == pages
    first = fresh_report["claims"][0]
    flipped = "refuted" if first["verdict"] != "refuted" else "proved"
    changed = {**fresh_report, "claims": [{**first, "verdict": flipped},
                                          *fresh_report["claims"][1:]]}
    assert docs_gen.generate_pages(changed, DOCS / "claims") != pages


def test_every_claim_is_in_its_papers_chapter(fresh_report: dict, pages: dict) -> None:
    for entry in fresh_report["claims"]:
        paper = paper_of(entry["seed_file"])
        assert paper is not None, entry["id"]
        page = docs_gen.claim_page_name(entry["id"], entry["seed_file"])
        assert page in _section_pages(pages), page
        assert f"**Verdict: {entry['verdict']}.**" in _claim_text(pages, entry)
        # the chapter index lists the section page, in its table and its toctree
        chapter = pages[docs_gen.paper_page_name(paper)]
        assert f"]({page})" in chapter and f"\n{page[:-3]}\n" in chapter, page
        assert "### `" not in chapter  # the claims are on the section pages only
    # each claim is written exactly once
    written = [cid for name in _section_pages(pages) for cid in _sections(pages[name])]
    assert sorted(written) == sorted(e["id"] for e in fresh_report["claims"])
    # the rebuttal's claims sit with the paper they defend
    rebuttal = [e for e in fresh_report["claims"] if e["seed_file"].startswith("000_")]
    assert rebuttal
    assert all(paper_of(e["seed_file"]).key == "nguyen2025cosine" for e in rebuttal)
    assert not any(name.startswith("seed-000") and "### `" in text for name, text in pages.items())


def test_every_claim_of_the_package_is_placed_by_its_papers_sections() -> None:
    """No claim lands on a section page by default: a pattern of the paper places it."""
    load_checks()
    unplaced = []
    for c in registered():
        paper = paper_of(c.seed_file)
        if paper is None:
            continue
        if not any(section.matches(c.id) for section in paper.parts):
            unplaced.append(c.id)
    assert not unplaced, (
        f"claims no Section pattern of their paper matches: {unplaced}; add a pattern to a "
        "Section in moetheory/engine/papers.py"
    )


_ROW = re.compile(
    r"^\* - \[(?P<title>[^\]]+)\]\((?P<page>[^)]+\.md)\)\n  - .*\n"
    r'  - <span class="nowrap">(?P<n>\d+)</span>\n  - (?P<counts>.*)$',
    re.M,
)


def test_chapter_index_counts_the_verdicts_of_its_sections(
    fresh_report: dict, pages: dict
) -> None:
    for paper in PAPERS:
        chapter = pages[docs_gen.paper_page_name(paper)]
        rows = {m["page"]: m for m in _ROW.finditer(chapter)}
        assert list(rows) == [docs_gen.section_page_name(paper, s) for s in paper.parts]
        for section in paper.parts:
            row = rows[docs_gen.section_page_name(paper, section)]
            entries = [
                e for e in fresh_report["claims"]
                if paper_of(e["seed_file"]) is paper
                and docs_gen.claim_page_name(e["id"], e["seed_file"]) == row["page"]
            ]
            assert int(row["n"]) == len(entries) == len(_sections(pages[row["page"]]))
            shown = {
                v: int(n) for v, n in re.findall(
                    r'verdict-(\w+)">\w+</span> <span class="nowrap">(\d+)</span>',
                    row["counts"],
                )
            }
            expected: dict[str, int] = {}
            for e in entries:
                expected[e["verdict"]] = expected.get(e["verdict"], 0) + 1
            assert shown == expected, (row["page"], shown, expected)
            assert row["title"] == docs_gen._text(section.title, cell=True)


def test_chapter_forwards_old_links_to_the_claims_pages(fresh_report: dict, pages: dict) -> None:
    """``<chapter>.html#<anchor>`` (the URL before the split) still reaches the claim."""
    for paper in PAPERS:
        chapter = pages[docs_gen.paper_page_name(paper)]
        found = re.search(r"var page = (\{.*\});", chapter)
        assert found, paper.key
        forward = json.loads(found.group(1))
        expected = {
            docs_gen.claim_anchor(e["id"]):
                docs_gen.claim_page_name(e["id"], e["seed_file"])[:-3] + ".html"
            for e in fresh_report["claims"]
            if paper_of(e["seed_file"]) is paper
        }
        assert forward == expected


def test_section_page_orders_numbered_statements_as_the_paper() -> None:
    def entry(cid: str) -> dict:
        return {"id": cid, "seed_file": "003_3078ccb5100b14b7.txt", "section": "CL",
                "statement": "s", "reading": "r", "verdict": "proved", "summary": "m"}

    ids = ["cl.lemma6.a", "cl.lemma2.b", "cl.corollary1.c", "cl.lemma1.d", "cl.lemma2.f",
           "cl.proofs.e", "cl.lemma10.g", "cl.lemma7.h", "cl.lemma13.i"]
    report = {"seed": 0, "profile": "quick", "family_alpha": 0.05,
              "claims": [entry(i) for i in ids]}
    paper = PAPERS[2]
    lemmas = next(s for s in paper.parts if s.key == "lemmas")
    page = docs_gen.render_section_page(report, paper, lemmas)
    headings = re.findall(r"^## (.+)$", page, flags=re.M)
    assert headings == ["Lemma 1", "Lemma 2", "Lemma 6", "Corollary 1"]
    claims = re.findall(r"^### `(.+)`$", page, flags=re.M)
    assert claims == ["cl.lemma1.d", "cl.lemma2.b", "cl.lemma2.f", "cl.lemma6.a",
                      "cl.corollary1.c"]
    proofs = next(s for s in paper.parts if s.key == "proofs")
    page = docs_gen.render_section_page(report, paper, proofs)
    assert re.findall(r"^## (.+)$", page, flags=re.M) == ["Lemma 7", "Lemma 10"]
    # the verdict table lists the claims in the order of the page
    table = page.split("```{list-table}", 1)[1].split("```", 1)[0]
    assert re.findall(r"\[`([^`]+)`\]", table) == ["cl.lemma7.h", "cl.lemma10.g"]
    # the long sections of the paper are two pages each (every page under 500 kB)
    late = next(s for s in paper.parts if s.key == "proofs-late")
    page = docs_gen.render_section_page(report, paper, late)
    assert re.findall(r"^## (.+)$", page, flags=re.M) == ["Lemma 13", "CL"]
    report["claims"] = [entry("cl.thm2.x"), entry("cl.thm1.y"), entry("cl.prop4.z"),
                        entry("cl.fig4-5"), entry("cl.more-experts.w")]
    pages = {key: re.findall(r"^## (.+)$", docs_gen.render_section_page(
        report, paper, next(s for s in paper.parts if s.key == key)), flags=re.M)
        for key in ("forgetting", "fewer-experts")}
    assert pages == {"forgetting": ["Proposition 4", "Theorem 1"],
                     "fewer-experts": ["Theorem 2", "CL"]}
    experiments = next(s for s in paper.parts if s.key == "experiments")
    page = docs_gen.render_section_page(report, paper, experiments)
    assert re.findall(r"^## (.+)$", page, flags=re.M) == ["Figures 4 and 5"]


def test_sections_reject_bad_keys_and_place_unknown_claims_last() -> None:
    from moetheory.engine.papers import Paper, Section, section_of

    with pytest.raises(ValueError, match="key must be lower-case"):
        Section("Rates", "Rates")
    with pytest.raises(ValueError, match="sections must have distinct keys"):
        Paper("x2020", ("A B",), "T", "V", 2020, sections=(Section("a", "A"), Section("a", "B")))
    paper = PAPERS[1]
    assert section_of("pcr.no-such-claim", paper) == paper.parts[-1]
    assert section_of("pcr.ident.two-layer-gelu", paper).key == "identifiability-two-layer"
    assert section_of("pcr.ident.ffn-gelu", paper).key == "identifiability"
    with pytest.raises(ValueError, match="section must be one of the sections"):
        docs_gen.section_page_name(paper, None)
    assert docs_gen.claim_page_name("x.y", "no-such-seed.txt") == "other.md"


def test_every_claim_reads_like_a_worked_proof(pages: dict) -> None:
    seen = 0
    proof = '<details class="proof" open><summary>Derivation</summary>'
    for name in _section_pages(pages):
        for claim_id, text in _sections(pages[name]).items():
            seen += 1
            order = [
                text.index("**Statement.**"),
                text.index("**Reading checked"),
                text.index(proof),
                text.index("**Verdict: "),
            ]
            if "{download}`Raw evidence" in text:  # the readings may hold all the evidence
                order.append(text.index("{download}`Raw evidence"))
            assert order == sorted(order), f"{claim_id}: sections out of order {order}"
            derivation = text.split(proof, 1)[1].split("</details>")[0]
            assert derivation.strip(), f"{claim_id} has no derivation"
    assert seen > 0


def test_claims_link_to_their_seed_lines(fresh_report: dict, pages: dict) -> None:
    """Each source links the sentence or display it quotes, among its cited lines."""
    for entry in fresh_report["claims"]:
        section = _claim_text(pages, entry)
        for src in entry.get("sources") or []:
            seed_page = docs_gen.seed_page_name(src["seed_file"])
            found = re.search(rf'href="{seed_page[:-3]}\.html#L(\d+)(?:-s(\d+))?"', section)
            assert found, f"{entry['id']}: no link to {seed_page}"
            line = int(found.group(1))
            assert min(src["lines"]) <= line <= max(src["lines"]) + 6, (entry["id"], line)
            anchor = f'id="L{line}' + (f'-s{found.group(2)}"' if found.group(2) else '"')
            assert anchor in pages[seed_page], (entry["id"], anchor)
            assert "```{container} seed-quote" in section
        if not entry.get("sources") and entry.get("origin") != "package":
            assert "seed-0" in section, f"{entry['id']}: no link to its seed document"
    for seed_file in SEED_FILES:
        text = (docs_gen.SEEDS_DIR / seed_file).read_text(encoding="utf-8")
        page = pages[docs_gen.seed_page_name(seed_file)]
        assert page.count("<li id=") == len(text.splitlines())


def test_jacobs_claims_quote_the_equation_they_check(fresh_report: dict, pages: dict) -> None:
    """Issue 31: the quote is the sentence or display that makes the claim -- for seed 001,
    one paragraph, a sentence of it -- not the paragraph's opening."""
    expect = {"j91.loss.1.3": r"\tag{1.3}", "j91.grad.1.4": r"\tag{1.4}",
              "j91.grad.1.5": r"\tag{1.5}", "j91.vowel.epochs": "half as many epochs"}
    for entry in fresh_report["claims"]:
        if entry["id"].startswith("j91."):
            quote = _claim_text(pages, entry).split("```{container} seed-quote", 1)[1]
            quote = quote.split("\n```", 1)[0]
            assert "Geoffry Hinton" not in quote, entry["id"]
            if entry["id"] in expect:
                assert expect[entry["id"]] in quote, (entry["id"], quote[:300])
            assert re.search(r'seed-001\.html#L3-s\d+"', _claim_text(pages, entry)), entry["id"]


def test_papers_are_cited_with_a_bibliography(pages: dict) -> None:
    bib = pages["bibliography.md"]
    for paper in PAPERS:
        chapter = pages[docs_gen.paper_page_name(paper)]
        assert paper.title in chapter and str(paper.year) in chapter
        assert all(name in chapter for name in paper.authors)
        if paper.arxiv:
            assert f"arXiv:[{paper.arxiv}]" in chapter and paper.arxiv in bib
        assert f"({paper.key})=" in bib
    assert docs_gen.paper_page_name(PAPERS[0])[:-3] in pages["index.md"]


def test_pages_show_no_sympy_code_syntax(pages: dict) -> None:
    for name, page in pages.items():
        if name.startswith("seed-") or not name.endswith(".md"):
            continue  # seed text is verbatim; raw evidence files are JSON
        visible = re.sub(r"<details.*?</details>", "", page, flags=re.S)
        visible = re.sub(r"```(?!\{).*?```", "", visible, flags=re.S)  # code blocks
        visible = re.sub(r"`[^`\n]+`", "", visible)  # inline code
        visible = re.sub(r"<blockquote class=\"seed-quote.*?</blockquote>", "", visible)
        for line in visible.splitlines():
            assert not has_code_syntax(line), f"{name}: SymPy syntax in {line[:200]!r}"


def test_evidence_is_a_compact_table_with_raw_json_folded() -> None:
    evidence = {
        "residual": {"sympy": "x**2 - 1", "latex": "x^{2} - 1"},
        "n": 10000,
        "ci": [0.1, 0.2],
        "fit": {"slope": 0.123456789, "ok": True},
        "traceback": f"File {docs_gen._REPO_ROOT}/x.py\nValueError: bad | $money$",
        "note": "a * b_c | $d_1$ costs $ 5 with tau1**2",
    }
    text = docs_gen.render_evidence(evidence)
    table, raw = text.split("<details", 1)
    assert "  - $x^{2} - 1$" in table and "x**2" not in table
    assert '<span class="nowrap">10000</span>' in table  # numbers never break
    assert "fit › slope" in table and '<span class="nowrap">0.123457</span>' in table
    assert "$\\tau_{1}^{2}$" in table and "\\$ 5" in table and "$d_1$" in table
    assert "1 further item(s)" in table  # the traceback is only in the raw JSON
    assert docs_gen._REPO_ROOT not in text and "<repo>/x.py" in raw
    assert json.loads(raw.split("```json\n", 1)[1].split("\n```", 1)[0])["n"] == 10000


def test_raw_evidence_is_linked_as_one_json_file_per_claim(
    fresh_report: dict, pages: dict
) -> None:
    for entry in fresh_report["claims"]:
        path = docs_gen.evidence_path(entry["id"])
        data = json.loads(pages[path])
        assert data["id"] == entry["id"] and data["evidence"] == json.loads(
            docs_gen._strip_paths(json.dumps(entry.get("evidence") or {}))
        )
        assert [r["name"] for r in data["readings"]] == [
            r["name"] for r in entry.get("readings") or []
        ]
        section = _claim_text(pages, entry)
        assert f"<{path}>`" in section and "```json" not in section
    assert len([p for p in pages if p.endswith(".json")]) == len(fresh_report["claims"])


def test_write_pages_removes_stale_evidence(tmp_path: Path) -> None:
    pages = {"index.md": "# x\n", "evidence/a.json": "{}\n"}
    docs_gen.write_pages(pages, tmp_path)
    assert (tmp_path / "evidence" / "a.json").read_text() == "{}\n"
    docs_gen.write_pages({"index.md": "# x\n"}, tmp_path)
    assert not (tmp_path / "evidence" / "a.json").exists()


def test_derivation_maths_is_made_safe() -> None:
    entry = {
        "id": "x.one",
        "statement": "s",
        "reading": "r",
        "verdict": "proved",
        "summary": "ok",
        "derivation": "## Step 1\n\nso\n$$\na = b\n$$\nthen $$c$$ is prose-safe\n\n"
        "```python\n# a comment\n$$x$$\n```",
    }
    text = docs_gen.render_claim(entry)
    assert "**Step 1**" in text and "## Step 1" not in text
    assert "so\n\n$$\na = b \\tag{D1}\n$$\n\nthen $c$ is prose-safe" in text
    assert "# a comment\n$$x$$" in text  # code is left alone


def test_latex_fields_are_preferred_when_given() -> None:
    entry = {
        "id": "x.one", "statement": "x**2 >= 0", "statement_latex": "$x^2 \\ge 0$ for real $x$",
        "reading": "r", "verdict": "proved", "summary": "s**2", "summary_latex": "$s^2$",
    }
    text = docs_gen.render_claim(entry)
    assert "**Statement.** $x^2 \\ge 0$ for real $x$" in text
    assert "**Verdict: proved.** $s^2$" in text


def test_bad_input_is_a_clear_value_error() -> None:
    with pytest.raises(ValueError, match="entry must have the report key 'verdict'"):
        docs_gen.render_claim({"id": "x", "statement": "s", "reading": "r", "summary": "m"})
    with pytest.raises(ValueError, match="claim_id must start with a letter"):
        docs_gen.claim_anchor("...")
    with pytest.raises(ValueError, match="schema"):
        docs_gen.generate_pages({"schema": "other/2", "claims": []})
    with pytest.raises(ValueError, match="evidence must be a mapping"):
        docs_gen.render_evidence([1, 2])  # type: ignore[arg-type]


def test_claim_anchor_is_the_docutils_slug() -> None:
    nodes = pytest.importorskip("docutils.nodes")
    load_checks()
    for c in registered():
        assert docs_gen.claim_anchor(c.id) == nodes.make_id(c.id)


def test_figures_have_captions_with_their_run(tmp_path: Path) -> None:
    report = {
        "seed": 0, "profile": "quick", "family_alpha": 0.05,
        "claims": [{"id": "cl.fig2", "seed_file": "003_3078ccb5100b14b7.txt", "section": "CL",
                    "statement": "s", "reading": "r", "verdict": "supported", "summary": "ok",
                    "readings": [{"name": "paper", "reading": "r", "verdict": "supported",
                                  "summary": "ok", "evidence": {"replicates": 20, "T": 2000}}]}],
    }
    figures = tmp_path / "_static" / "figures" / "cl-fig2"
    figures.mkdir(parents=True)
    (figures / "cl_fig2_paper.png").write_bytes(b"\x89PNG\r\n")
    (figures / "cl_fig2_paper.svg").write_text("<svg/>")
    (figures / "cl_fig2.csv").write_text("t,F\n")
    (figures / "figures.json").write_text(
        json.dumps({"profile": "full", "seed": 0, "replicates": 100,
                    "command": "moetheory reproduce cl-fig2 --profile full"})
    )
    pages = docs_gen.generate_pages(report, tmp_path / "claims", tmp_path / "_static/figures")
    page = pages["li2025continual-experiments.md"]
    assert "```{figure} ../_static/figures/cl-fig2/cl_fig2_paper.png" in page
    caption = page.split("cl_fig2_paper.png", 1)[1].split("```", 1)[0]
    assert "Figure 2" in caption and "full profile" in caption and "100 replicates" in caption
    # the table's run is stated beside the figure's, from the claim's own evidence
    assert "quick-profile verification run of 20 replicates and $T = 2000$ rounds" in caption
    assert "svg" not in page and "cl_fig2.csv" not in page
    assert not any("cl_fig2" in text for name, text in pages.items() if name.startswith("nguyen"))
    assert "cl_fig2" not in pages["li2025continual.md"]  # the chapter index shows no claim


def test_every_figure_of_the_docs_has_a_caption() -> None:
    for folder in (DOCS / "_static" / "figures").iterdir():
        for image in folder.glob("*.png"):
            assert image.stem in docs_gen.FIGURE_CAPTIONS, image
        assert (folder / "figures.json").is_file(), f"{folder}: run docs/make_figures.py"


def test_check_mode_reports_stale_pages(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    report.write_text('{"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": []}')
    args = ["--report", str(report), "--out", str(tmp_path / "claims"), "--quiet"]
    assert docs_gen.main([*args, "--check"]) == 1
    assert docs_gen.main(args) == 0
    assert docs_gen.main([*args, "--check"]) == 0
    (tmp_path / "claims" / "bibliography.md").write_text("edited by hand\n")
    assert docs_gen.main([*args, "--check"]) == 1


def test_every_reproduce_target_has_a_page() -> None:
    from moetheory.engine.catalogue import catalogue_spec
    from moetheory.engine.reproduce import REPRODUCERS

    assert set(docs_gen.FIGURE_CLAIMS) == set(REPRODUCERS)
    assert all(catalogue_spec(c) is not None for c in docs_gen.FIGURE_CLAIMS.values())


def test_make_figures_names_the_targets() -> None:
    proc = subprocess.run(
        [sys.executable, str(DOCS / "make_figures.py"), "no-such-figure"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "unknown target(s) ['no-such-figure']" in proc.stderr
    assert all(t in proc.stderr for t in docs_gen.FIGURE_CLAIMS)


def test_quickstart_snippets_run() -> None:
    """Every ``pycon`` block of the quick start runs as a doctest, in order, sharing names."""
    import doctest

    text = (DOCS / "quickstart.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names: dict = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, names, f"quickstart[{i}]", "quickstart.md", 0)
        runner.run(test, clear_globs=False)
        names = test.globs  # the next block sees this block's names
    assert runner.failures == 0 and runner.tries > 5, runner.summarize()


# -- the built site -------------------------------------------------------------------


def _inventory(path: Path) -> set[str]:
    data = path.read_bytes()
    body = data.split(b"\n", 4)[4]
    return {line.split(" ", 1)[0] for line in zlib.decompress(body).decode().splitlines()}


def test_sphinx_build_needs_only_pip(built_html: Path) -> None:
    assert (built_html / "_static" / "mathjax" / "tex-chtml.js").is_file()
    html = (built_html / "claims" / "li2025continual-lemmas.html").read_text(encoding="utf-8")
    assert "_static/mathjax/tex-chtml.js" in html and "cdn." not in html
    names = _inventory(built_html / "objects.inv")
    for name in ("moetheory.verify", "moetheory.claim", "moetheory.Outcome",
                 "moetheory.engine.verdicts.Outcome", "moetheory.docs.generate_pages"):
        assert name in names, name
    source = docs_gen.generate_pages.__module__.replace(".", "/") + ".html"  # viewcode
    assert (built_html / "_modules" / source).is_file(), source
    assert (built_html / "api" / "moetheory.strategies.html").is_file()  # a page per module


#: A page heavier than this loads slowly and makes a browser's find-in-page stall.
_MAX_PAGE_BYTES = 1_000_000
#: A claim page is held to half of that, so a few more claims never push one over (a paper's
#: chapter has one page per section of the paper for this).
_MAX_CLAIM_PAGE_BYTES = 500_000


def test_every_page_is_small_and_links_its_evidence(built_html: Path) -> None:
    heavy = {
        str(p.relative_to(built_html)): p.stat().st_size
        for p in _built_pages(built_html)
        if p.stat().st_size >= _MAX_PAGE_BYTES
        or ("claims" in p.parts and p.stat().st_size > _MAX_CLAIM_PAGE_BYTES)
    }
    assert not heavy, (
        f"pages of {_MAX_PAGE_BYTES} bytes or more, or claim pages over "
        f"{_MAX_CLAIM_PAGE_BYTES}: {heavy}"
    )
    html = (built_html / "claims" / "nguyen2025cosine-rates.html").read_text(encoding="utf-8")
    links = re.findall(r'href="(\.\./_downloads/[^"]+\.json)"', html)
    assert links, "the raw evidence is not linked"
    for link in set(links):
        target = (built_html / "claims" / link).resolve()
        assert target.is_file(), link
        json.loads(target.read_text(encoding="utf-8"))


def test_claim_anchors_resolve(built_html: Path, fresh_report: dict) -> None:
    for e in fresh_report["claims"]:
        page = docs_gen.claim_page_name(e["id"], e["seed_file"]).replace(".md", ".html")
        html = (built_html / "claims" / page).read_text(encoding="utf-8")
        assert f'id="{docs_gen.claim_anchor(e["id"])}"' in html, e["id"]
        # the claims index links the claim where it is
        index = (built_html / "claims" / "index.html").read_text(encoding="utf-8")
        assert f'href="{page}#{docs_gen.claim_anchor(e["id"])}"' in index, e["id"]


def test_a_chapters_section_pages_are_in_the_sidebar(built_html: Path) -> None:
    """On a chapter or one of its section pages, the sidebar lists every section page."""
    for paper in PAPERS:
        names = [docs_gen.section_page_name(paper, s)[:-3] for s in paper.parts]
        for page in (docs_gen.paper_page_name(paper)[:-3], names[-1]):
            html = (built_html / "claims" / f"{page}.html").read_text(encoding="utf-8")
            sidebar = html.split('class="sphinxsidebar"', 1)[1]
            for name in names:
                assert f'href="{name}.html"' in sidebar or (
                    name == page and 'class="current reference internal" href="#"' in sidebar
                ), (page, name)


class _Page(HTMLParser):
    """What a reader sees of a page: the prose, the maths sources, MathJax's output."""

    _SKIP_TAGS = frozenset({"script", "style", "pre", "code", "head", "title", "mjx-container",
                            "mjx-assistive-mml", "details", "textarea"})
    _SKIP_CLASSES = frozenset({"seed-quote", "seed-text", "math", "highlight", "sig"})
    _VOID = frozenset({"br", "img", "meta", "link", "input", "hr", "wbr", "col", "area",
                       "source"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool, bool]] = []
        self.prose: list[str] = []
        self.math: list[str] = []
        self.containers = 0
        self.errors = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        red = tag.startswith("mjx-") and "color: red" in (a.get("style") or "")
        if tag == "mjx-merror" or "data-mjx-error" in a or "MathJax_Error" in classes or red:
            self.errors += 1  # a TeX error, or an undefined macro (set in red by MathJax)
        if tag == "mjx-container":
            self.containers += 1
        skip = tag in self._SKIP_TAGS or bool(classes & self._SKIP_CLASSES)
        is_math = "math" in classes and tag in ("span", "div")
        if tag not in self._VOID:
            self.stack.append((tag, skip, is_math))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if any(m for _, _, m in self.stack) and not any(
            t == "mjx-container" for t, _, _ in self.stack
        ):
            self.math.append(data)
        if not any(s for _, s, _ in self.stack) and any(
            t in ("div", "section", "article") for t, _, _ in self.stack
        ):
            self.prose.append(data)


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


_TEXT_COMMANDS = re.compile(
    r"\\(?:text|mathrm|operatorname|textrm|textit|textbf|mbox|mathit|label|tag)\s*\{[^{}]*\}"
)


def _prose_in_maths(source: str) -> list[str]:
    """English running text inside a formula (outside ``\\text{}`` and friends)."""
    bare = _TEXT_COMMANDS.sub(" ", source)
    bare = re.sub(r"\\[A-Za-z]+", " ", bare)
    return re.findall(r"\b[A-Za-z]{3,}\s+[A-Za-z]{3,}\s+[A-Za-z]{2,}\b", bare)


def _rendering_problems(name: str, text: str) -> list[str]:
    page = _parse(text)
    prose = " ".join("".join(page.prose).split())
    problems = []
    for m in re.finditer(r"\$", prose):
        problems.append(f"stray $: …{prose[max(0, m.start() - 40):m.start() + 40]}…")
    for m in re.finditer(r"\\[A-Za-z]{2,}|\\[()\[\]]", prose):
        problems.append(f"raw TeX: …{prose[max(0, m.start() - 40):m.start() + 40]}…")
    if has_code_syntax(prose):
        problems.append("SymPy syntax in the prose")
    for source in page.math:
        for words in _prose_in_maths(source):
            problems.append(f"prose inside maths: {words!r} in {source[:120]!r}")
        if "\t" in source:  # "\text" or "\tau" read by Python as TAB + "ext"
            problems.append(f"TAB inside maths: {source[:120]!r}")
    for m in re.finditer(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", text):  # "\alpha" read as BEL
        around = text[max(0, m.start() - 40):m.start() + 40]
        problems.append(f"control character {m.group()!r}: …{around!r}…")
    return [f"{name}: {p}" for p in problems[:8]]


def _built_pages(built_html: Path) -> list[Path]:
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    return sorted(
        p for p in built_html.rglob("*.html")
        if p.name not in skip and "_modules" not in p.parts and "_static" not in p.parts
    )


def test_every_page_passes_the_static_rendering_checks(built_html: Path) -> None:
    problems: list[str] = []
    for path in _built_pages(built_html):
        problems += _rendering_problems(
            str(path.relative_to(built_html)), path.read_text(encoding="utf-8")
        )
    assert not problems, "\n".join(problems[:40])


def test_rendering_checks_catch_what_they_must() -> None:
    bad = (
        '<div class="body"><p>The cost is $5 and \\tfrac{1}{2} and x**2</p>'
        '<span class="math notranslate">\\(The printed eq is wrong\\)</span></div>'
    )
    problems = " ".join(_rendering_problems("bad", bad))
    assert "control character" in " ".join(_rendering_problems("bell", "<p>$\x07lpha$</p>"))
    tab = '<div class="body"><span class="math notranslate">\\(N_{\text{stat}}\\)</span></div>'
    assert "TAB inside maths" in " ".join(_rendering_problems("tab", tab))
    assert "stray $" in problems and "raw TeX" in problems and "SymPy syntax" in problems
    assert "prose inside maths" in problems
    good = '<div class="body"><p>Fine.</p><span class="math">\\(\\text{the set} x\\)</span></div>'
    assert _rendering_problems("good", good) == []


@pytest.fixture(scope="session")
def served(built_html: Path) -> Iterator[str]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(built_html))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _render(url: str, profile: Path, *options: str) -> str:
    proc = subprocess.run(
        [
            str(CHROMIUM),
            *options,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=30000",
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium missing: apt-get install chromium"
)
def test_every_page_typesets_in_chromium(
    built_html: Path, served: str, tmp_path: Path
) -> None:
    """Every page with maths, rendered by headless Chromium: all typeset, no MathJax error."""
    paths = [
        p for p in _built_pages(built_html)
        if 'class="math' in p.read_text(encoding="utf-8")
    ]
    assert any(p.name == "li2025continual-lemmas.html" for p in paths)

    def check(item: tuple[int, Path]) -> list[str]:
        i, path = item
        rel = path.relative_to(built_html).as_posix()
        source = _parse(path.read_text(encoding="utf-8"))
        dom = _parse(_render(f"{served}/{rel}", tmp_path / f"chromium-{i}"))
        out = []
        if dom.errors:
            out.append(f"{rel}: {dom.errors} MathJax errors")
        if dom.containers == 0:
            out.append(f"{rel}: no formula typeset")
        left = [m for m in dom.math if "\\(" in m or "\\[" in m]
        if left:
            out.append(f"{rel}: {len(left)} of {len(source.math)} formulas left untypeset")
        return out

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        problems = [p for ps in pool.map(check, enumerate(paths)) for p in ps]
    assert not problems, "\n".join(problems)


@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium missing: apt-get install chromium"
)
def test_chromium_check_catches_bad_formulas(
    built_html: Path, served: str, tmp_path: Path
) -> None:
    """The browser check can fail: an undefined macro, a TeX error and an unbalanced formula
    on a copy of a built page are all caught."""
    page = (built_html / "index.html").read_text(encoding="utf-8")
    bad = page.replace(
        "</h1>",
        '</h1><p><span class="math notranslate nohighlight">\\(a \\nosuchmacro b\\)</span> '
        '<span class="math notranslate nohighlight">\\(\\frac{1}\\)</span> '
        '<span class="math notranslate nohighlight">\\(\\frac{1}{x \\)</span></p>',
        1,
    )
    (built_html / "bad-maths.html").write_text(bad, encoding="utf-8")
    try:
        dom = _parse(_render(f"{served}/bad-maths.html", tmp_path / "chromium"))
    finally:
        (built_html / "bad-maths.html").unlink()
    assert dom.errors >= 2
    assert any("\\(" in m for m in dom.math)  # the unbalanced one is left untypeset


@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium missing: apt-get install chromium"
)
def test_old_chapter_links_reach_the_claim_in_chromium(
    built_html: Path, served: str, tmp_path: Path, fresh_report: dict
) -> None:
    """A link made before the chapters were split, ``<chapter>.html#<claim anchor>``, opens
    the claim's section page at the claim."""
    for i, paper in enumerate(PAPERS):
        entry = next(e for e in fresh_report["claims"] if paper_of(e["seed_file"]) is paper)
        anchor = docs_gen.claim_anchor(entry["id"])
        chapter = docs_gen.paper_page_name(paper)[:-3]
        dom = _render(f"{served}/claims/{chapter}.html#{anchor}", tmp_path / f"chromium-{i}")
        page = docs_gen.claim_page_name(entry["id"], entry["seed_file"])
        section = next(s for s in paper.parts if docs_gen.section_page_name(paper, s) == page)
        title = re.search(r"<title>(.*?)</title>", dom, flags=re.S)
        assert title and title.group(1).startswith(section.title), (chapter, anchor)
        assert f'id="{anchor}"' in dom


def test_no_latex_command_is_read_as_a_python_escape() -> None:
    # "$\tau$" in a non-raw string is TAB + "au"; "\frac" is a form feed + "rac": such text
    # reaches the claim pages broken (found by the static check on a Theorem 2 derivation)
    import io
    import tokenize

    root = Path(__file__).resolve().parents[1]
    escape = re.compile(r"(?<!\\)\\[abftv](?=[a-zA-Z]{2})")
    found = []
    for path in sorted([*root.glob("proofs_checks/*.py"), *root.glob("moetheory/**/*.py"),
                        *root.glob("benchmarks/*.py")]):
        text = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            prefix = re.match(r"[A-Za-z]*", tok.string).group().lower()  # type: ignore[union-attr]
            if tok.type == tokenize.STRING and "r" not in prefix and escape.search(tok.string):
                found.append(f"{path.relative_to(root)}:{tok.start[0]}: {tok.string[:60]}")
    assert not found, "\n".join(found)


# -- snippets run at build time (docs/_ext/snippets.py, "Checking your own paper") ---------


def _build_snippets(tmp_path: Path, page: str) -> subprocess.CompletedProcess[str]:
    """Build a one-page site with the snippet extension (no ``-W``: a failure must stop it)."""
    for module in ("sphinx", "myst_parser"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: pip install -e '.[docs]'")
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(DOCS / '_ext')!r})\n"
        "extensions = ['myst_parser', 'snippets']\n"
        "myst_enable_extensions = ['dollarmath']\nroot_doc = 'page'\n",
        encoding="utf-8",
    )
    (src / "page.md").write_text(page, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(tmp_path / "out")],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])},
    )


def test_snippets_run_share_names_and_show_their_results(tmp_path: Path) -> None:
    page = (
        "# Page\n\n```{snippet}\nimport sympy as sp\nfrom moetheory import Outcome, Verdict\n"
        "x = sp.Symbol('x')\nprint('printed', 6 * 7)\nsp.sqrt(x) / 2\n```\n\n"
        "```{snippet}\nOutcome(Verdict.PROVED, 'it holds', summary_latex='$x^2 \\\\ge 0$')\n```\n\n"
        "```{snippet}\n:file: mine.py\nprint('from a file')\n```\n\n"
        "```{snippet-command}\npython mine.py\n```\n\n"
        "```{snippet}\n:requires: no_such_module_anywhere\nraise RuntimeError\n```\n"
    )
    proc = _build_snippets(tmp_path, page)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "out" / "page.html").read_text(encoding="utf-8")
    marks = re.findall(r'class="snippet snippet-(\w+)', html)
    assert marks == ["ran", "ran", "file", "command", "skipped"]
    assert "printed 42" in html
    assert "\\[\\frac{\\sqrt{x}}{2}\\]" in html  # a SymPy value, typeset
    assert "snippet-verdict-proved" in html and "\\(x^2 \\ge 0\\)" in html
    assert "from a file" in html and "cannot be imported" in html


@pytest.mark.parametrize(
    ("page", "message"),
    [
        ("```{snippet}\nx = 1\n1 / 0\n```\n", "ZeroDivisionError"),
        ("```{snippet}\n" + "x = 1\n" * 11 + "```\n", "11 lines of code, at most 10"),
        ("```{snippet-command}\npython -c 'raise SystemExit(3)'\n```\n",
         "exited with 3, expected 0"),
        ("```{snippet-command}\nrm -rf /\n```\n", "a command starts with one of"),
    ],
    ids=["raises", "too-long", "exit-status", "other-program"],
)
def test_a_failing_snippet_stops_the_build(tmp_path: Path, page: str, message: str) -> None:
    proc = _build_snippets(tmp_path, "# Page\n\n" + page)
    assert proc.returncode != 0
    assert "Snippet failed" in proc.stderr and message in proc.stderr, proc.stderr
    assert "page.md:3" in proc.stderr  # where it is


def test_the_own_paper_chapter_ran_its_snippets(built_html: Path) -> None:
    """Every snippet of the chapter ran, and the page shows the verdicts the chapter's prose
    states, in order."""
    source = (DOCS / "own-paper.md").read_text(encoding="utf-8")
    html = (built_html / "own-paper.html").read_text(encoding="utf-8")
    marks = re.findall(r'class="snippet snippet-(\w+)', html)
    assert len(marks) == len(re.findall(r"^```\{snippet(?:-command)?\}", source, flags=re.M))
    assert "skipped" not in marks
    verdicts = re.findall(r"snippet-verdict-(\w+)", html)
    assert verdicts == ["refuted", "proved", "proved", "proved", "proved", "refuted",
                        "supported", "unsupported", "inconclusive"]
    assert "1 failed, 3 passed" in html  # pytest with the plugin: the slip fails
    assert "3 claims checked: proved 1, supported 1, unsupported 1" in html


def _snippet_values(page: str) -> list[tuple[str, str]]:
    """What each snippet of a built page printed or displayed as a ``repr``, in order:
    ``("printed" | "repr", text)``, the text without markup."""
    values = []
    for part in re.split(r'class="snippet-output snippet-', page)[1:]:
        kind = part.split()[0]
        if kind in ("printed", "repr"):
            block = part[: part.index("</pre>")]
            text = unescape(re.sub(r"<[^>]+>", "", block.split(">", 1)[1]))
            values.append((kind, text.strip()))
    return values


def test_the_gallery_ran_its_snippets_and_shows_the_papers_verdicts(built_html: Path) -> None:
    """"Other papers": every snippet ran, the page shows in order the verdicts and scopes its
    prose states and the direct checks of each paper's relation, and cites the five papers."""
    source = (DOCS / "gallery.md").read_text(encoding="utf-8")
    page = (built_html / "gallery.html").read_text(encoding="utf-8")
    marks = re.findall(r'class="snippet snippet-(\w+)', page)
    assert marks == ["ran"] * len(re.findall(r"^```\{snippet\}", source, flags=re.M))
    verdicts = re.findall(r"snippet-verdict-(\w+)", page)
    assert verdicts == ["proved"] * 6 + ["refuted"]
    # the relation searches: Gaussian d = 1; softmax and sigmoid tanh, temperature d = 1, 2;
    # Laplace d = 1 -- never wider than searched
    scopes = re.findall(r"hold in <span[^>]*>\\\(d = ([\d, ]+)\\\)</span>", page)
    assert scopes == ["1", "1, 2", "1, 2", "1, 2", "1"]
    assert _snippet_values(page) == [
        ("repr", "(True, True)"),  # heat equation and gate-expert interaction hold
        ("printed", "True True\nFalse True"),  # softmax has H = H_b0, sigmoid not; both interact
        ("repr", "True"),  # the temperature relation in d = 2
        ("repr", "[True, True, True]"),  # no Laplace generator mixes gate and expert
        ("printed", "True\nFalse"),  # the softmax interaction fails under the Laplace gate
        ("printed", "proved"),  # sigmoid FFN expert strongly identifiable
    ]
    for arxiv in ("2305.03288", "2405.13997", "2401.13875", "2410.02935", "2402.02952"):
        assert f"arXiv:{arxiv}" in page
    assert page.count('href="#gallery-references"') >= 6


# -- the site as a newcomer reads it: the API, links, page feet, widths ------------------------

#: The functions the own-paper chapter teaches (``moetheory._LAZY``, "your own mathematics").
_TAUGHT = ("router_pde", "find_relations", "identifiable", "check_expectation", "required_n")


def test_the_api_reference_opens_with_the_functions_users_are_taught(built_html: Path) -> None:
    import moetheory

    html = (built_html / "api.html").read_text(encoding="utf-8")
    where = {name: html.find(f'id="moetheory.{name}"') for name in moetheory._LAZY}
    assert all(p >= 0 for p in where.values()), [n for n, p in where.items() if p < 0]
    assert max(where[n] for n in _TAUGHT) < min(
        p for n, p in where.items() if n not in _TAUGHT
    ), "the five functions users are taught come first"
    for module in ("moetheory.stats.expectation", "moetheory.symbolic.identifiable"):
        assert (built_html / "api" / f"{module}.html").is_file(), module


def _signatures(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", "", m).split())
            for m in re.findall(r'<dt class="sig sig-object py"[^>]*>(.*?)</dt>', html, re.S)]


def test_signatures_read_as_python(built_html: Path) -> None:
    """No ``~typing.Any`` or ``<factory>``: the Python domain parsed every signature (else it
    shows it split at every comma, ``~typing.Any]`` as a parameter of its own)."""
    bad = [
        f"{page.name}: {sig[:160]}"
        for page in [built_html / "api.html", *sorted((built_html / "api").glob("*.html"))]
        for sig in _signatures(page.read_text(encoding="utf-8"))
        if re.search(r"~[A-Za-z_]\w*\.|<factory>", sig)
    ]
    assert not bad, f"{len(bad)} signatures:\n" + "\n".join(bad[:20])
    html = (built_html / "api" / "moetheory.stats.html").read_text(encoding="utf-8")
    sig = next(s for s in _signatures(html) if s.startswith("class moetheory.stats.Sequential"))
    assert "looks: list[dict[str, Any]] = ..." in sig


def test_signature_cleaning() -> None:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from signatures import clean_signature
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    assert clean_signature("(a: ~x.Y, b: dict[str, ~typing.Any] = <factory>) ") == (
        "(a: ~x.Y, b: dict[str, ~typing.Any] = ...) ")


def _reading_pages(built_html: Path) -> list[Path]:
    """The pages a reader reaches through the contents (not the verbatim seed texts)."""
    return [p for p in _built_pages(built_html) if not p.name.startswith("seed-")
            or p.parent.name == "ledger"]


def test_every_page_has_previous_and_next_at_its_foot(built_html: Path) -> None:
    # the previous and next page were linked only at the end of the sidebar
    missing = []
    for path in _reading_pages(built_html):
        html = path.read_text(encoding="utf-8")
        if '<div class="body"' not in html:
            continue
        tail = html.split('<div class="body"', 1)[1]
        foot = re.search(r'<nav class="prev-next"[^>]*>(.*?)</nav>', tail, re.S)
        rel = path.relative_to(built_html).as_posix()
        if rel == "index.html":
            ok = foot is not None and 'rel="next"' in foot.group(1)
        else:
            ok = foot is not None and 'rel="prev"' in foot.group(1)
        if not ok:
            missing.append(rel)
        elif foot is not None:
            for href in re.findall(r'href="([^"#]+)', foot.group(1)):
                assert (path.parent / href).resolve().is_file(), (rel, href)
        if foot is not None:
            assert tail.index('class="prev-next"') > tail.index("</div>"), rel
    assert not missing, f"{len(missing)} pages without previous/next at their foot: {missing[:20]}"


def test_every_claim_id_on_every_page_is_a_working_link(
    built_html: Path, fresh_report: dict
) -> None:
    """The ledger, calibration, seed-stability and verdicts pages -- every page but the API
    reference, where a claim ID is a Python value (``ClaimSpec(id='pcr.pde.cosine', ...)``)
    -- link each claim ID they name, and no link of the site is broken."""
    from test_docs_scan import broken_links, unlinked_claim_ids

    ids = {e["id"] for e in fresh_report["claims"]}
    found: list[str] = []
    anchors: dict[Path, set[str]] = {}
    for path in _reading_pages(built_html):
        html = path.read_text(encoding="utf-8")
        rel = path.relative_to(built_html).as_posix()
        if not rel.startswith("api"):
            found += [f"{rel}: {p}" for p in unlinked_claim_ids(html, ids)]
        found += [f"{rel}: {p}" for p in broken_links(built_html, path, html, anchors)]
    assert not found, f"{len(found)} found:\n" + "\n".join(found[:40])
    html = (built_html / "ledger" / "seed-003.html").read_text(encoding="utf-8")
    assert 'class="claim-link reference internal" href="../claims/' in html


#: The window of a reader on a laptop: no page may be wider (a table or formula scrolls in
#: its column instead).
_WINDOW = (1400, 900)

#: Measured once MathJax is done, every formula counted: an inline formula wider than its
#: line (MathJax 3 cannot break one) is set on a line of its own that scrolls
#: (docs/_ext/widemath.js), a table scrolls in its wrapper.
_MEASURE = """<script>
(function () {
  function measure() {
    document.body.setAttribute("data-page-width", document.documentElement.scrollWidth);
  }
  window.addEventListener("load", function () {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(measure);
    } else { measure(); }
  });
})();
</script></body>"""


@pytest.mark.slow
@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium missing: apt-get install chromium"
)
def test_no_page_is_wider_than_the_window(built_html: Path, served: str, tmp_path: Path) -> None:
    # 7 pages and 20 tables were wider than a 1400-px window (the atlas 7,462 px): tables,
    # displayed formulas and code now scroll inside the text column; three continual-learning
    # pages (1,502-1,811 px) through long inline formulas, now on a line of their own
    paths = _reading_pages(built_html)

    def width(item: tuple[int, Path]) -> tuple[str, int]:
        i, path = item
        copy = path.with_name(f"{path.stem}.measure{i}.html")
        copy.write_text(path.read_text(encoding="utf-8").replace("</body>", _MEASURE, 1),
                        encoding="utf-8")
        try:
            rel = copy.relative_to(built_html).as_posix()
            dom = _render(f"{served}/{rel}", tmp_path / f"chromium-{i}",
                          f"--window-size={_WINDOW[0]},{_WINDOW[1]}")
        finally:
            copy.unlink()
        found = re.search(r'data-page-width="(\d+)"', dom)
        return path.relative_to(built_html).as_posix(), int(found.group(1)) if found else -1

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        widths = dict(pool.map(width, enumerate(paths)))
    wide = {p: w for p, w in widths.items() if not 0 < w <= _WINDOW[0]}
    assert not wide, f"pages wider than {_WINDOW[0]} px (or not measured, -1): {wide}"


#: The quick run's Markdown report stays within the 500 kB of issue 45 (457 kB on 2026-12-07,
#: with a derivation of its own for every claim; 497 kB before a repeated paragraph became a
#: link and readings that say the same shared a row).
_MAX_QUICK_MARKDOWN_BYTES = 500_000


def test_the_quick_runs_markdown_report_keeps_its_margin(fresh_report: dict) -> None:
    from moetheory.engine.report import SUMMARY_ROW_CHARS, render_markdown

    assert fresh_report["profile"] == "quick"
    md = render_markdown(fresh_report)
    assert len(md.encode()) <= _MAX_QUICK_MARKDOWN_BYTES
    rows = [ln for ln in md.split("## Claims")[0].splitlines() if ln.startswith("| [")]
    assert len(rows) == len(fresh_report["claims"])
    assert max(len(row) for row in rows) <= SUMMARY_ROW_CHARS


def test_a_wide_inline_formula_is_set_on_a_line_that_scrolls() -> None:
    # three continual-learning pages were 1,502-1,811 px wide at a 1400-px window through
    # inline formulas MathJax 3 cannot break: after typesetting, one wider than its line is
    # marked (on every page with maths) and the stylesheet sets it on a scrolling line
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    path = re.search(r'^mathjax_config_path = "([^"]+)"', conf, re.M)
    assert path, "docs/conf.py sets no mathjax_config_path"
    script = (DOCS / path.group(1)).read_text(encoding="utf-8")
    assert "startup.pageReady" in script and "defaultPageReady()" in script
    assert 'classList.add("wide-inline")' in script
    css = (DOCS / "_static" / "moetheory.css").read_text(encoding="utf-8")
    rule = re.search(r"mjx-container\.wide-inline \{([^}]*)\}", css)
    assert rule and "display: block" in rule.group(1) and "overflow-x: auto" in rule.group(1)
