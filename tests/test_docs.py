"""The documentation: generated claim pages, the Sphinx build, and the pages as a reader sees them.

* the committed pages under ``docs/claims`` equal a fresh generation from a fresh
  verification run (quick profile, seed 0) -- regenerate with ``python docs/generate.py``;
* ``sphinx-build -W`` succeeds (skipped without Sphinx or a local MathJax);
* headless Chromium renders the main pages: formulas typeset by MathJax, no raw ``$...$``
  left, no empty page (skipped without ``/usr/bin/chromium``).
"""

from __future__ import annotations

import difflib
import functools
import http.server
import importlib.util
import itertools
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from moetheory import docs_gen
from moetheory.engine.registry import load_checks, registered

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CHROMIUM = Path("/usr/bin/chromium")
MAIN_PAGES = [
    "index.html",
    "quickstart.html",
    "verdicts.html",
    "api.html",
    "claims/index.html",
    "claims/seed-000.html",
    "claims/seed-001.html",
    "claims/seed-002.html",
    "claims/seed-003.html",
]


# -- fixtures -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def fresh_report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A fresh verification run with the settings of the committed pages.

    It runs ``moetheory.verify`` in a fresh interpreter, so claims that other tests
    register in this process never leak into the pages.
    """
    path = tmp_path_factory.mktemp("report") / "report.json"
    code = (
        "import json, sys, moetheory\n"
        "from moetheory import docs_gen as g\n"
        "r = moetheory.verify(profile=g.GENERATE_PROFILE, seed=g.GENERATE_SEED,"
        " jobs=g.GENERATE_JOBS)\n"
        "open(sys.argv[1], 'w', encoding='utf-8').write(json.dumps(r))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=3000
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(path.read_text(encoding="utf-8"))


def _mathjax_available() -> bool:
    """Whether ``docs/conf.py`` finds a local MathJax (it raises RuntimeError otherwise)."""
    spec = importlib.util.spec_from_file_location("_moetheory_docs_conf", DOCS / "conf.py")
    assert spec is not None and spec.loader is not None
    try:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    except RuntimeError:
        return False
    return True


@pytest.fixture(scope="session")
def built_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built with ``sphinx-build -W`` into a temporary folder."""
    for module in ("sphinx", "myst_parser", "numpydoc"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: pip install -e '.[docs]'")
    if not _mathjax_available():
        pytest.skip(
            "no local MathJax 2.7: apt-get install libjs-mathjax (or set MOETHEORY_MATHJAX_DIR)"
        )
    out = tmp_path_factory.mktemp("html")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(DOCS),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"sphinx-build -W failed:\n{proc.stdout}\n{proc.stderr}"
    return out


# -- generated pages ------------------------------------------------------------------


def test_committed_pages_equal_fresh_generation(fresh_report: dict) -> None:
    pages = docs_gen.generate_pages(fresh_report, DOCS / "claims", DOCS / "_static" / "figures")
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (DOCS / "claims").glob("*.md")}
    assert sorted(on_disk) == sorted(pages), "run `python docs/generate.py`"
    stale = [name for name, text in pages.items() if on_disk[name] != text]
    diff = (
        "".join(
            itertools.islice(
                difflib.unified_diff(
                    on_disk[stale[0]].splitlines(True),
                    pages[stale[0]].splitlines(True),
                    f"committed/{stale[0]}",
                    f"fresh/{stale[0]}",
                    n=1,
                ),
                60,
            )
        )
        if stale
        else ""
    )
    assert not stale, f"pages out of date: {stale}; run `python docs/generate.py`\n{diff}"


def test_every_claim_is_on_its_seed_page(fresh_report: dict) -> None:
    pages = docs_gen.generate_pages(fresh_report)
    for entry in fresh_report["claims"]:
        page = pages[docs_gen.seed_page_name(entry["seed_file"])]
        assert f"### `{entry['id']}`" in page
        assert f"**Verdict: {entry['verdict']}**" in page


def test_pages_ignore_timings_and_change_with_verdicts(fresh_report: dict) -> None:
    slower = {**fresh_report, "claims": [{**e, "seconds": 1e6} for e in fresh_report["claims"]]}
    assert docs_gen.generate_pages(slower) == docs_gen.generate_pages(fresh_report)
    first = fresh_report["claims"][0]
    flipped = "refuted" if first["verdict"] != "refuted" else "proved"
    changed = {
        **fresh_report,
        "claims": [{**first, "verdict": flipped}, *fresh_report["claims"][1:]],
    }
    assert docs_gen.generate_pages(changed) != docs_gen.generate_pages(fresh_report)


def test_claim_anchor_is_the_docutils_slug() -> None:
    nodes = pytest.importorskip("docutils.nodes")
    load_checks()
    for c in registered():
        assert docs_gen.claim_anchor(c.id) == nodes.make_id(c.id)


def test_evidence_rendering() -> None:
    evidence = {
        "residual": {"sympy": "x**2 - 1", "latex": "x^{2} - 1"},
        "comparisons": [
            {"label": "E[F]", "estimate": 0.123456789, "ci": [0.1, 0.2], "verdict": "supported"},
            {"label": "E[G]", "estimate": 2.0, "ci": [1.5, 2.5], "verdict": "unsupported"},
        ],
        "traceback": f"File {docs_gen._REPO_ROOT}/x.py\nValueError: bad | $money$",
        "note": "a * b_c | $d_1$ costs $ 5",
        "nested": {"n": 3, "flag": True},
    }
    text = docs_gen.render_evidence(evidence)
    assert "$x^{2} - 1$" in text
    assert "| label | estimate | ci | verdict |" in text
    assert "| E[F] | 0.123457 | [0.1, 0.2] | supported |".replace("[F]", "\\[F\\]") in text
    assert docs_gen._REPO_ROOT not in text and "<repo>/x.py" in text
    assert "a \\* b\\_c \\| $d_1$ costs \\$ 5" in text  # maths kept, the rest escaped
    assert "  - **n**: 3" in text


def test_check_headings_are_demoted() -> None:
    entry = {
        "id": "x.one",
        "statement": "s",
        "reading": "r",
        "verdict": "proved",
        "summary": "ok",
        "derivation": "## Step 1\n\n$$a = b$$\n\n```python\n# a comment\n```",
    }
    text = docs_gen.render_claim(entry)
    assert "**Step 1**" in text and "## Step 1" not in text
    assert "# a comment" in text


def test_bad_input_is_a_clear_value_error() -> None:
    with pytest.raises(ValueError, match="entry must have the report key 'verdict'"):
        docs_gen.render_claim({"id": "x", "statement": "s", "reading": "r", "summary": "m"})
    with pytest.raises(ValueError, match="claim_id must start with a letter"):
        docs_gen.claim_anchor("...")
    with pytest.raises(ValueError, match="schema"):
        docs_gen.generate_pages({"schema": "other/2", "claims": []})
    with pytest.raises(ValueError, match="evidence must be a mapping"):
        docs_gen.render_evidence([1, 2])  # type: ignore[arg-type]


def test_figures_appear_on_their_claim(tmp_path: Path) -> None:
    fresh_report = {
        "seed": 0,
        "profile": "quick",
        "family_alpha": 0.05,
        "claims": [
            {
                "id": "cl.fig2",
                "seed_file": "003_3078ccb5100b14b7.txt",
                "section": "CL",
                "statement": "s",
                "reading": "r",
                "verdict": "supported",
                "summary": "ok",
            }
        ],
    }
    figures = tmp_path / "_static" / "figures" / "cl-fig2"
    figures.mkdir(parents=True)
    (figures / "forgetting.png").write_bytes(b"\x89PNG\r\n")
    (figures / "forgetting.svg").write_text("<svg/>")
    (figures / "forgetting.csv").write_text("t,F\n")
    pages = docs_gen.generate_pages(fresh_report, tmp_path / "claims", tmp_path / "_static/figures")
    page = pages[docs_gen.seed_page_name("003_3078ccb5100b14b7.txt")]
    assert "![forgetting.png](../_static/figures/cl-fig2/forgetting.png)" in page
    assert "forgetting.svg" not in page and "forgetting.csv" not in page
    assert "forgetting.png" not in pages["seed-002.md"]


def test_check_mode_reports_stale_pages(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    report.write_text('{"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": []}')
    args = ["--report", str(report), "--out", str(tmp_path / "claims"), "--quiet"]
    assert docs_gen.main([*args, "--check"]) == 1
    assert docs_gen.main(args) == 0
    assert docs_gen.main([*args, "--check"]) == 0
    (tmp_path / "claims" / "seed-001.md").write_text("edited by hand\n")
    assert docs_gen.main([*args, "--check"]) == 1


def test_every_reproduce_target_has_a_page() -> None:
    from moetheory.engine.catalogue import catalogue_spec
    from moetheory.reproduce import REPRODUCERS

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


# -- the built site -------------------------------------------------------------------


def test_sphinx_build_succeeds(built_html: Path) -> None:
    for page in MAIN_PAGES:
        assert (built_html / page).is_file(), page
    assert (built_html / "_static" / "mathjax" / "MathJax.js").is_file()
    html = (built_html / "verdicts.html").read_text(encoding="utf-8")
    assert "_static/mathjax/MathJax.js" in html and "cdn." not in html


def test_claim_anchors_resolve(built_html: Path, fresh_report: dict) -> None:
    for e in fresh_report["claims"]:
        page = docs_gen.seed_page_name(e["seed_file"]).replace(".md", ".html")
        html = (built_html / "claims" / page).read_text(encoding="utf-8")
        assert f'id="{docs_gen.claim_anchor(e["id"])}"' in html, e["id"]


class _Dom(HTMLParser):
    """What a reader sees of a rendered page: the main text, math and MathJax output."""

    _SKIP = frozenset({"script", "style", "pre", "code", "head", "title"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.text: list[str] = []
        self.math_sources = 0
        self.typeset = 0
        self.errors = 0
        self.in_body = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "script" and (dict(attrs).get("type") or "").startswith("math/tex"):
            self.math_sources += 1
        if "mjx-chtml" in classes and "MJXc-display" not in classes:
            self.typeset += 1
        if {"mjx-merror", "MathJax_Error", "merror"} & set(classes):
            self.errors += 1
        body = "body" in classes and tag == "div"
        self.in_body += body
        if tag not in {"br", "img", "meta", "link", "input", "hr", "wbr", "col", "area"}:
            self.stack.append((tag, body))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, body = self.stack.pop()
            self.in_body -= body
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.in_body and not any(t in self._SKIP for t, _ in self.stack):
            self.text.append(data)


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


def _render(url: str, profile: Path) -> str:
    proc = subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=20000",
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium missing: apt-get install chromium"
)
@pytest.mark.parametrize("page", MAIN_PAGES)
def test_page_renders_with_typeset_formulas(page: str, served: str, tmp_path: Path) -> None:
    dom = _Dom()
    dom.feed(_render(f"{served}/{page}", tmp_path / "chromium"))
    text = " ".join("".join(dom.text).split())
    assert len(text) > 200, f"{page} looks empty: {text[:200]!r}"
    assert dom.errors == 0, f"{page}: {dom.errors} MathJax errors"
    assert dom.typeset >= dom.math_sources, f"{page}: formulas not typeset"
    raw = re.findall(r"\$[^$\s][^$]{0,80}\$|\\\(|\\\[", text)
    assert not raw, f"{page}: raw maths left in the text: {raw[:5]}"
    if page in ("verdicts.html", "index.html"):
        assert dom.math_sources > 0 and dom.typeset > 0, f"{page}: no formula typeset"
