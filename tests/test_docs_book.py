"""The claim pages as a book (issue 31): formulas in the checks' plain text typeset, the
seed quote the sentence that makes the claim, every statistical number in a table, the
apparatus (links, uses / used by, notation, numbered equations, verdict history), statements
without checker instructions -- and no text of a report ever read as markup (issue 30,
item 8).

These tests run on the generator's MyST, without Sphinx; ``test_docs_scan.py`` reads the
built site.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from moetheory import docs as docs_gen
from moetheory.docs._book import build_book, on_page
from moetheory.docs._markup import _embed, _text
from moetheory.engine._prose import formula_latex, prose_myst
from moetheory.engine.registry import load_checks, registered

ROOT = Path(__file__).resolve().parents[1]


# -- formulas in plain text ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "formulas"),
    [
        ("a_j = 0 for some j, or eta_i = -eta_j for some i != j",
         [r"a_{j} = 0", r"\eta_{i} = -\eta_{j}", r"i \ne j"]),
        ("dependent: (72)*h(x,eta1) + (-81)*D[a,a]h(x,eta2) = 0 a.e.",
         [r"(72) h(x, \eta_{1}) + (-81) \partial_{a a} h(x, \eta_{2}) = 0"]),
        ("(1-r)/(t-1) sum_{i<t} (1 - r^(t-i)) D/N^2",
         [r"(1-r)/(t-1) \sum_{i<t} (1 - r^{t-i}) D/N^{2}"]),
        ("L_t^{(m_tau)} and ‖w_t − w_(t−1)‖² = 1", [r"L_{t}^{(m_{\tau})}",
                                                    r"\|w_{t} - w_{t-1}\|^{2} = 1"]),
        ("τ₁·u/((n_b + τ₁)²·(n_x + τ₂)) -> oo",
         [r"\tau_{1}\cdot u/((n_{b} + \tau_{1})^{2}\cdot (n_{x} + \tau_{2})) \to \infty"]),
        ("at d = 1, k = 2: 20 functions", ["d = 1", "k = 2"]),
        ("x ≤ 1 and E[lhs]=1.322", [r"x \le 1", r"E[\mathrm{lhs}]=1.322"]),
        ("sup ‖∇_β1 s̃‖ = 1/τ2", [r"\|\nabla _{\beta_{1}} \tilde{s}\| = 1/\tau_{2}"]),
        ("w_{T1+1} = ⋯ = w_T, then … more", [r"w_{T_{1}+1} = \cdots = w_{T}"]),
    ],
)
def test_formulas_in_plain_text_are_typeset(text: str, formulas: list[str]) -> None:
    out = prose_myst(text)
    assert re.findall(r"\$([^$]+)\$", out) == formulas, out


def test_words_stay_words() -> None:
    """The English of the seeds never turns into mathematics ("what" is not ŵ, "that" not
    t̂, "pcos-2" is a name, "voronoi_l1" is code)."""
    words: set[str] = set()
    for seed in sorted((ROOT / "docs" / "seeds").glob("00[012]_*.txt")):
        text = re.sub(r"\$[^$]*\$", " ", seed.read_text(encoding="utf-8"))
        words |= set(re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", text))
    typeset = sorted(w for w in words if "$" in prose_myst(w))
    assert set(typeset) <= {"delta"}, typeset
    assert prose_myst("the reading pcos-2-no-order0 with voronoi_l1") == (
        "the reading pcos-2-no-order0 with `voronoi_l1`")


def test_formula_latex_is_well_formed() -> None:
    for text in ("eta_hat_n -> eta*", "‖Pu‖∞²", "exp(−(sdσ0)²/2)", "P^{-1} = I + β₁ β₁^T",
                 "d2h/db2^2 = 0", "((((x", "x)))", "a_{b", "|x", "sum_{i<t"):
        latex = re.sub(r"\\[{}]", "", formula_latex(text))  # escaped braces are text
        assert latex.count("{") == latex.count("}"), (text, latex)
        assert "$" not in latex


def _double_scripts(tokens: list) -> bool:
    last = ""
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if isinstance(t, list):
            if _double_scripts(t):
                return True
            last = ""
        elif t in ("_", "^"):
            if t == last:
                return True
            last = t
            k += 2
            continue
        elif t == "'" and last == "^":
            return True
        elif t != " ":
            last = ""
        k += 1
    return False


@pytest.mark.parametrize("text", ["‖θ_T1^m − θ_T1^m'‖∞", "π_1π_2 ≈ 1/4", "Σ_iX_{t,i} = (1, -1)",
                                  "∂²H/∂β1_i∂b = ∂H/∂a_i", "x_1_2 and x^2^3", "w_n'^2"])
def test_no_formula_has_a_double_script(text: str) -> None:
    """MathJax refuses ``x_{1}_{i}`` and ``θ^{m}'`` (found by the browser check)."""
    from moetheory.engine._prose import _tex_tokens

    for latex in re.findall(r"\$([^$]+)\$", prose_myst(text)):
        assert not _double_scripts(_tex_tokens(latex)[0]), (text, latex)


def test_two_formulas_never_touch() -> None:
    # "$a$$b$" would read as a display
    for text in ("x$y$", "$a$ eta1", "‖θ‖∞‖Δv‖∞", "k*=2,K=2"):
        assert "$$" not in prose_myst(text), text


# -- no text of a report is markup (issue 30 item 8) -------------------------------------------

_HOSTILE = '<script>alert("x")</script><img src=x onerror="alert(1)">'


def test_report_text_cannot_be_html_or_a_directive() -> None:
    for markdown in (False, True):
        out = prose_myst(f"m {_HOSTILE} [x](javascript:alert(1))", markdown=markdown)
        assert not re.search(r"(?<!\\)<(?:script|img)|(?<!\\)\]\(", out), out
    derivation = (f"Step.\n\n{_HOSTILE}\n\n```{{raw}} html\n<script>x</script>\n```\n\n"
                  ":::{eval-rst}\n.. raw:: html\n:::\n\n| a | <b>x</b> |\n|---|---|\n")
    out = _embed(derivation)
    assert "```{raw}" not in out and ":::{eval-rst}" not in out and "```text" in out
    outside_code = re.sub(r"```text.*?```", "", out, flags=re.S)
    assert not re.search(r"(?<!\\)<(?:script|img|b>)", outside_code), outside_code


# -- the apparatus -----------------------------------------------------------------------------

_COMPARISON = {"label": "t=2", "rule": "at-most", "estimate": 0.6878, "ci": [0.2345, 1.141],
               "ci_method": "t", "ci_level": 0.99997, "alpha": 2.395e-05, "n": 200,
               "reference": 0.0, "tolerance": 0.033, "verdict": "unsupported"}


def _report() -> dict:
    def entry(cid: str, **kw: object) -> dict:
        return {"id": cid, "seed_file": "003_3078ccb5100b14b7.txt", "section": "CL",
                "statement": "s", "reading": "r", "verdict": "proved", "summary": "m",
                "evidence": {}, "kind": "exact", "claim_seed": 7, **kw}

    return {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": [
        entry("cl.prop4.generalization", statement="E[G_T] as eq. (18) writes it"),
        entry("cl.prop4.forgetting", statement="by the recursion of cl.prop4.generalization, "
              "eq. (17) holds", kind="statistical", verdict="unsupported",
              readings=[{"name": "primary", "reading": "the primary reading", "verdict":
                         "unsupported", "summary": "s", "evidence": {
                             "comparisons": [_COMPARISON]}},
                        {"name": "other", "reading": "another", "verdict": "proved",
                         "summary": "s", "evidence": {}}]),
    ]}


def test_claim_pages_carry_the_apparatus(tmp_path: Path) -> None:
    calibration = tmp_path / "calibration"
    calibration.mkdir()
    (calibration / "cl.prop4.forgetting.json").write_text(json.dumps(
        {"profile": "quick", "date": "2026-12-01", "shipped_verdicts":
         ["unsupported"] * 7 + ["inconclusive"] * 3}), encoding="utf-8")
    report = _report()
    book = build_book(report, docs_gen.SEEDS_DIR, calibration)
    paper = next(p for p in docs_gen.generate_pages.__globals__["PAPERS"]
                 if p.key == "li2025continual")
    section = next(s for s in paper.parts if s.key == "forgetting")
    page = docs_gen.render_section_page(report, paper, section, None, docs_gen.SEEDS_DIR,
                                        True, book)
    # the setting and notation, and the paper's equations (17), (18), numbered as the paper
    assert "```{rubric} Setting and notation" in page and "$r = 1 - s/d$" in page
    for number in ("17", "18"):
        assert f'<span id="eq-li2025continual-{number}"></span>' in page
        assert f"\\tag{{{number}}}" in page
        assert f'href="#eq-li2025continual-{number}"' in page  # the statements link them
    # claim IDs are links; uses / used by
    assert "[`cl.prop4.generalization`](#cl-prop4-generalization)" in page
    assert "**Uses.** [`cl.prop4.generalization`](#cl-prop4-generalization)." in page
    assert "**Used by.** [`cl.prop4.forgetting`](#cl-prop4-forgetting)." in page
    # the derivation folds; the primary reading is the reading checked
    assert page.count('<details class="proof" open><summary>Derivation</summary>') == 2
    assert "**Reading checked** (the primary reading, `primary`). the primary reading" in page
    # the comparison's every number, with the seed and the rule
    assert "~~~{list-table} Comparisons of the primary reading `primary` (claim seed 7)" in page
    for number in ("0.6878", "[0.2345, 1.141] (t)", "200", "0.033", "2.395 × 10<sup>−5</sup>"):
        assert f"  - {number}" in page, number
    assert "`at-most`: `supported` iff" in page
    # the verdict over the calibration seeds
    assert "of 10. Seed by seed:" in page and 'title="seeds 0–6: unsupported"' in page
    assert "An exact check" in page  # the exact claim's verdict does not depend on the seed


def test_links_are_made_only_on_a_page_of_the_book() -> None:
    book = build_book(_report(), calibration_dir=None)
    text = "see cl.prop4.generalization and `cl.prop4.generalization`"
    assert "](" not in _text(text)
    with on_page(book, "li2025continual-forgetting.md", "li2025continual"):
        assert _text(text).count("](#cl-prop4-generalization)") == 2
    with on_page(book, "index.md", None):
        assert "(li2025continual-forgetting.md#cl-prop4-generalization)" in _text(text)


def test_statements_carry_no_checker_instructions() -> None:
    """A statement is the paper's claim; how it is checked belongs to the reading."""
    load_checks()
    instruction = re.compile(
        r"\b(?:Must be shown|Give the|[Cc]heck (?:it|each|whether)|[Dd]esign a|say so|"
        r"Quantify|Decide whether|Show that)\b|\?\s*$")
    found = [f"{c.id}: {c.statement}" for c in registered()
             if instruction.search(c.statement) or instruction.search(c.statement_latex or "")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("text", ["seed L109/L111", "and/or", "lines L56-L57 and L60"])
def test_words_joined_by_an_operator_stay_words(text: str) -> None:
    # "seed L109/L111" was typeset as $L_{109}/L_{111}$ and "and/or" as $\mathrm{and}/...$
    assert prose_myst(text) == text


@pytest.mark.parametrize("text", ["beyond a check's 900-s limit", "a documented 2-D stand-in"])
def test_a_number_and_a_one_letter_unit_before_a_word_stay_words(text: str) -> None:
    # "a check's 900-s limit" (pcr.rates.perturbed-fast's summary) was typeset as $900-s$, read
    # "900 − s"; a difference keeps its maths
    assert prose_myst(text) == text
    assert prose_myst("where 2-x = 0") == "where $2-x = 0$"
    assert "$" in prose_myst("x-y") and "$" in prose_myst("n-1 samples")
