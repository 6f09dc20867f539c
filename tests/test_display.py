"""Results render themselves in a notebook (issue 29, item 6): Markdown and HTML with typeset
maths, every report-derived text escaped, and ``verify``'s report still the dict it was."""

from __future__ import annotations

import json
import pickle
import re
from html.parser import HTMLParser

import pytest
import sympy as sp

from moetheory import Outcome, Reading, Verdict, get_claim, load_checks, verify
from moetheory.engine.display import Card, Report, html_text, literal, markdown_text
from moetheory.stats import at_least, compare
from moetheory.stats._intervals import MeanEstimate
from moetheory.symbolic.interactions import EXPERTS, ROUTERS, interactions
from moetheory.symbolic.pde import euler_residual
from moetheory.symbolic.routers import COSINE, perturbed_cosine_router

#: The only tags the renderers write; anything else came from the data.
ALLOWED = {"div", "p", "b", "i", "span", "ul", "li", "code", "pre", "details", "summary"}
HOSTILE = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'


class Tags(HTMLParser):
    """The tags of an HTML fragment, checking that they nest."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.add(tag)
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack.pop() == tag, f"</{tag}> closes nothing"


def tags(fragment: str) -> set[str]:
    parser = Tags()
    parser.feed(fragment)
    parser.close()
    assert not parser.stack, f"unclosed tags {parser.stack}"
    return parser.seen


def maths(fragment: str) -> list[str]:
    """The inline formulas of an HTML fragment, as MathJax reads them (entities decoded)."""
    import html

    return [html.unescape(m) for m in re.findall(r"\\\((.*?)\\\)", fragment, re.S)]


X = sp.Symbol("x", real=True)


def hostile_outcome() -> Outcome:
    reading = Reading(HOSTILE, HOSTILE, Verdict.REFUTED, HOSTILE, {HOSTILE: HOSTILE},
                      derivation=HOSTILE)
    return Outcome(
        Verdict.PROVED, HOSTILE, {"residual": X**2 - 1, "note": HOSTILE, HOSTILE: [HOSTILE]},
        readings=[reading], derivation=f"{HOSTILE}\n\n$$x^2 < 1$$ and `<code>`",
        statement_latex=HOSTILE,
    )


# -- Outcome and Reading ------------------------------------------------------------------


def test_outcome_renders_verdict_summary_and_typeset_evidence() -> None:
    o = Outcome(Verdict.PROVED, "residual simplifies to 0", {"residual": X**2 - 1, "n": 3})
    md, page = o._repr_markdown_(), o._repr_html_()
    assert md.splitlines()[0] == "**Outcome** — **proved**"
    assert "- **`residual`**: $x^{2} - 1$" in md and "- **`n`**: `3`" in md
    assert maths(page) == ["x^{2} - 1"]
    assert tags(page) <= ALLOWED


def test_outcome_summary_is_typeset_from_its_sympy_text() -> None:
    o = Outcome(Verdict.REFUTED, "x**2 - 1 < 0 fails at x = 2")
    assert "x^{2} - 1" in maths(o._repr_html_())[0]


def test_every_report_derived_text_is_escaped() -> None:
    o = hostile_outcome()
    page = o._repr_html_()
    assert tags(page) <= ALLOWED  # no script, no img: only the renderer's own tags
    assert "&lt;script&gt;" in page and "&lt;img" in page
    md = o._repr_markdown_()
    assert "<script" not in md and "<img" not in md and "&lt;script&gt;" in md
    assert "`<code>`" in md  # code stays code: Markdown does not interpret it
    reading_page = o.readings[0]._repr_html_()
    assert tags(reading_page) <= ALLOWED and "&lt;script&gt;" in reading_page


def test_maths_is_mathjax_ready_and_escaped() -> None:
    page = html_text("if $a<b$ then $$\\frac{a}{b} < 1$$")
    assert maths(page) == ["a<b"] and "\\[\\frac{a}{b} &lt; 1\\]" in page
    assert "$" not in page
    assert markdown_text("$a<b$") == "$a\\lt b$"


def test_a_literal_dollar_never_starts_a_formula() -> None:
    o = Outcome(Verdict.SUPPORTED, "ok", {"cost": "between $5 and $6"})
    page = o._repr_html_()
    assert maths(page) == []
    assert page.count('<span class="tex2jax_ignore">$</span>') == 2
    assert "between \\$5 and \\$6" in o._repr_markdown_()


def test_unserialisable_evidence_still_renders() -> None:
    o = Outcome(Verdict.PROVED, "ok", {"thing": object()})
    assert "not JSON-serialisable" in o._repr_markdown_()
    assert tags(o._repr_html_()) <= ALLOWED


def test_readings_and_derivation_are_shown() -> None:
    r1 = Reading("literal", "as written", Verdict.REFUTED, "x**2 < 0 fails")
    r2 = Reading("fixed", "sign fixed", Verdict.PROVED, "holds")
    o = Outcome.from_readings([r1, r2])
    o.derivation = "Since $x^2 \\ge 0$:\n\n- one\n- two"
    md, page = o._repr_markdown_(), o._repr_html_()
    assert "- *literal* — **refuted**: $x^{2}$ &lt; 0 fails" in md
    assert "<li><i>fixed</i> — <b>proved</b>: holds</li>" in page
    assert "**Derivation**" in md and "<li>one</li><li>two</li>" in page


# -- claims and the report --------------------------------------------------------------


def test_a_claim_renders_its_typeset_statement() -> None:
    load_checks()
    c = get_claim("pcr.pde.cosine")
    md, page = c._repr_markdown_(), c._repr_html_()
    assert md.startswith("**`pcr.pde.cosine`** — **exact**")
    assert "$\\beta_1^\\top \\partial H/\\partial\\beta_1 = 0$" in md
    assert "\\beta_1^\\top \\partial H/\\partial\\beta_1 = 0" in maths(page)
    assert "seed lines" in md and tags(page) <= ALLOWED


def test_verify_returns_the_same_dict_that_renders_itself() -> None:
    report = verify("pcr.experts.param-count")
    assert isinstance(report, dict) and isinstance(report, Report)
    plain = dict(report)
    assert report == plain and json.loads(json.dumps(report)) == json.loads(json.dumps(plain))
    assert pickle.loads(pickle.dumps(report)) == plain
    md = report._repr_markdown_()
    verdict = report["claims"][0]["verdict"]
    assert md.splitlines()[0] == f"**`pcr.experts.param-count`** — **{verdict}**"
    assert tags(report._repr_html_()) <= ALLOWED


def test_a_report_of_several_claims_lists_them_with_details() -> None:
    entries = [{"id": f"mine.{i}", "verdict": "proved", "summary": f"x**{i} >= 0",
                "summary_latex": f"$x^{{{i}}} \\ge 0$"} for i in range(3)]
    report = Report({"counts": {"proved": 3, "refuted": 0}, "claims": entries,
                     "profile": "quick", "seed": 0, "complete": True})
    md, page = report._repr_markdown_(), report._repr_html_()
    assert "3 claims checked: proved 3" in md
    assert "- `mine.2` — **proved**: $x^{2} \\ge 0$" in md
    assert page.count("<details>") == 3 and tags(page) <= ALLOWED


def test_a_malformed_report_still_renders() -> None:
    report = Report({"counts": "?", "claims": [1, {"id": HOSTILE, "evidence": [1, 2]}]})
    assert tags(report._repr_html_()) <= ALLOWED
    md = report._repr_markdown_()
    assert "<script" not in re.sub(r"`[^`]*`", "", md)  # inside a code span it is text


# -- symbolic and statistical results -----------------------------------------------------


def test_euler_result_renders_and_has_one_formula() -> None:
    cosine, perturbed = euler_residual(COSINE), euler_residual(perturbed_cosine_router())
    assert cosine._repr_latex_() == (
        "$\\beta_1^\\top \\frac{\\partial H}{\\partial \\beta_1} = 0$"
    )
    assert "eq. (4) holds" in cosine._repr_markdown_()
    md = perturbed._repr_markdown_()
    assert "eq. (4) fails" in md and "$u = 0$" in md
    ratio = sp.latex(perturbed.ratio)
    assert f"(\\beta_1^\\top \\partial H/\\partial\\beta_1) / H = {ratio}" in maths(
        perturbed._repr_html_()
    )


def test_interaction_result_typesets_every_relation_and_its_scope() -> None:
    res = interactions(ROUTERS["cosine"], EXPERTS["linear"], order=1, d=2)
    md = res._repr_markdown_()
    assert md.startswith("**Relations of the cosine router × linear expert**")
    assert "($d = 2$, order $\\le 1$)" in md
    for rel in res.relations:
        assert f"${rel.latex()}$" in md and rel._repr_latex_() == f"${rel.latex()}$"
    none = interactions(ROUTERS["linear"], EXPERTS["tanh"], order=1, d=1)
    assert "no relation of order $\\le 1$" in none._repr_markdown_()
    assert tags(none._repr_html_()) <= ALLOWED


def test_comparison_renders_estimate_interval_and_claimed_region() -> None:
    c = compare(HOSTILE, MeanEstimate(1.0, 0.9, 1.1, 10, 0.99), 1.0, 0.2)
    md, page = c._repr_markdown_(), c._repr_html_()
    assert "**supported**" in md and "99% interval $[0.9, 1.1]$" in md
    assert "$[r - t, r + t] = [0.8, 1.2]$" in md
    assert tags(page) <= ALLOWED and "&lt;script&gt;" in page
    low = at_least("gap", MeanEstimate(0.1, 0.0, 0.2, 10, 0.95), 0.5)
    assert "**unsupported**" in low._repr_markdown_()


# -- the building blocks ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("plain & <b>", "<p>plain &amp; &lt;b&gt;</p>"),
        ("**bold** and *it*", "<p><b>bold</b> and <i>it</i></p>"),
        ("a\n\nb", "<p>a</p><p>b</p>"),
        ("```\n<x>\n```", "<pre>&lt;x&gt;\n</pre>"),
        (literal("$1 `x`"), '<p><span class="tex2jax_ignore">$</span>1 '
         '<span class="tex2jax_ignore">`</span>x<span class="tex2jax_ignore">`</span></p>'),
    ],
)
def test_html_text(text: str, html: str) -> None:
    assert html_text(text) == html


def test_a_card_nests_fields_and_children() -> None:
    card = Card("t", verdict="error", fields=[("a", [("b", "$1$")])],
                children=[Card("c", verdict="proved")])
    md = card.markdown()
    assert "- **a**:\n  - **b**: $1$" in md and "**c** — **proved**" in md
    assert tags(card.html()) <= ALLOWED


# -- evidence as markup: keys as code, maths typeset by the code that knows it (issue 45) --


def _prose_outside_maths_and_code(fragment: str) -> str:
    """The text a reader sees as prose: the HTML without its formulas, code and tags."""
    import html

    text = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]|<code>.*?</code>", " ", fragment, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def test_evidence_keys_are_code_and_declared_typeset_forms_replace_plain_text() -> None:
    from moetheory.engine.display import TYPESET, evidence_fields

    evidence = {"max_n": 5, "label": "E[X]", "history": [{"verdicts": {"E[X]": "supported"}}],
                "note": "E[X] is not declared here", TYPESET: {"E[X]": "$\\mathbb{E}[X]$"}}
    assert evidence_fields(evidence) == [
        ("`max_n`", "`5`"),
        ("`label`", "$\\mathbb{E}[X]$"),
        ("`history`", [("[0]", [("`verdicts`", [("$\\mathbb{E}[X]$", "supported")])])]),
        ("`note`", "E[X] is not declared here"),  # only the declared strings, whole
    ]
    # a key that is not a mapping of balanced markup is evidence like any other, shown plain
    for bad in ({"E[X]": "$\\mathbb{E}[X]"}, {"E[X]": 3}, "E[X]"):
        fields = evidence_fields({"label": "E[X]", TYPESET: bad})
        assert fields[0] == ("`label`", "E[X]") and fields[1][0] == f"`{TYPESET}`"
    assert evidence_fields({"a`b": 1, "a b": 2}) == [("a\\`b", "`1`"), ("a b", "`2`")]


def test_a_statistical_result_shows_its_evidence_as_markup() -> None:
    from moetheory.engine.display import TYPESET
    from moetheory.stats import check_expectation

    result = check_expectation(lambda rng, n: rng.uniform(size=n), 0.6, tol=0.05, max_n=2000)
    outcome = result.to_outcome()
    assert outcome.evidence["label"] == "E[X]"  # the JSON keeps the plain text
    page = outcome._repr_html_()
    prose = _prose_outside_maths_and_code(page)
    for plain in ("E[X]", "alpha_look", "max_n", "[0.", "n = "):
        assert plain not in prose, plain
    assert "\\mathbb{E}[X]" in " ".join(maths(page))
    assert "<code>alpha_look</code>" in page and tags(page) <= ALLOWED
    md = outcome._repr_markdown_()
    assert "- **`label`**: $\\mathbb{E}[X]$" in md and f"`{TYPESET}`" not in md


def test_terminal_and_markdown_report_leave_the_typeset_forms_out() -> None:
    from moetheory.engine.display import TYPESET
    from moetheory.engine.report import render_evidence
    from moetheory.engine.terminal import evidence_rows

    evidence = {"label": "E[X]", TYPESET: {"E[X]": "$\\mathbb{E}[X]$"}}
    assert evidence_rows(evidence) == [("label", "E[X]")]
    assert render_evidence(evidence) == "- **label**: E[X]\n"
    assert TYPESET not in render_evidence(evidence, full=False)
    from moetheory.testing._assert import failure_message

    message = failure_message({"verdict": "unsupported", "evidence": evidence})
    assert "E[X]" in message and TYPESET not in message and "mathbb" not in message


def test_a_reading_equal_to_the_statement_is_not_repeated() -> None:
    from moetheory.engine.display import entry_card

    entry = {"id": "mine.x", "verdict": "supported", "statement": "E max(Z1, Z2) = 1/√π",
             "reading": "E max(Z1, Z2) = 1/√π",
             "statement_latex": "$\\mathbb{E}\\max(Z_1, Z_2) = 1/\\sqrt{\\pi}$"}
    assert [label for label, _ in entry_card(entry).fields] == ["statement"]
    assert entry_card(entry).fields[0][1] == entry["statement_latex"]
    other = {**entry, "reading": "the mean of the larger of two standard normals"}
    assert [label for label, _ in entry_card(other).fields] == ["statement", "reading"]
