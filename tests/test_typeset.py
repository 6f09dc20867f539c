"""Mathematics typeset beside the plain text (issue 13, item 2).

* :func:`~moetheory.engine.mathtext.sympy_text_to_latex` finds the expressions SymPy printed
  into a text and typesets them with :func:`sympy.latex`; it fills every empty
  ``summary_latex`` / ``reading_latex`` of an Outcome or Reading;
* every catalogue row whose statement holds mathematics has a ``statement_latex``, and the
  registry, the runner and the reports carry it;
* no ``*_latex`` text sets prose inside maths.
"""

from __future__ import annotations

import re

import pytest
import sympy as sp

from moetheory import CheckContext, Outcome, Verdict
from moetheory.engine.catalogue import CATALOGUE
from moetheory.engine.mathtext import has_code_syntax, sympy_text_to_latex
from moetheory.engine.registry import claim, get_claim, load_checks, unregister
from moetheory.engine.verdicts import Reading

# -- the central helper ---------------------------------------------------------------


def _formulas(text: str) -> list[str]:
    return re.findall(r"\$([^$]+)\$", text)


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        (
            "tau1*u/((n_b + tau1)**2*(n_x + tau2))",
            r"\frac{\tau_{1} u}{\left(n_{b} + \tau_{1}\right)^{2} \left(n_{x} + \tau_{2}\right)}",
        ),
        ("d**2/(2*d + 1)", r"\frac{d^{2}}{2 d + 1}"),
        ("exp(-r**2/2)", r"e^{- \frac{r^{2}}{2}}"),
        (
            "2*exp(3/2)/(1 + exp(3/2))**2",
            r"\frac{2 e^{\frac{3}{2}}}{\left(1 + e^{\frac{3}{2}}\right)^{2}}",
        ),
        ("t**(-2)", r"\frac{1}{t^{2}}"),
        ("S*r*(r**2 - r - 1)/N", r"\frac{S r \left(r^{2} - r - 1\right)}{N}"),
        ("d*h + h*d", r"d h + d h"),  # kept as written: not simplified to 2 d h
    ],
)
def test_expressions_are_typeset_as_written(text: str, latex: str) -> None:
    assert sympy_text_to_latex(text) == f"${latex}$"


def test_typeset_formula_is_sympys_latex_of_the_expression() -> None:
    x, n = sp.symbols("x n")
    expr = sp.sqrt(sp.log(n) / n) * x**2
    text = f"rate {sp.sstr(expr)} holds"
    (formula,) = _formulas(sympy_text_to_latex(text))
    assert formula == sp.latex(expr)


def test_prose_stays_prose_and_is_prettified() -> None:
    out = sympy_text_to_latex("2*d*h < d**2 for all 1 <= h < d; tau2-only leaves it")
    assert out == "$2 d h$ < $d^{2}$ for all 1 ≤ h < d; τ₂-only leaves it"
    assert not has_code_syntax(out.replace("$", " "))


def test_text_without_sympy_syntax_gives_nothing_to_typeset() -> None:
    for text in (
        "residual simplifies to 0",
        "n = 10000, p = 0.03",
        "tau2-only",
        "E[F_t]",
        "a/b",
        "x - y",
        "",
    ):
        assert sympy_text_to_latex(text) == "", text


def test_words_before_an_operator_are_not_terms() -> None:
    # SymPy writes binary minus with spaces on both sides: "gap -(...)" is a word and a
    # unary minus, not "gap - (...)"
    out = sympy_text_to_latex("the gap -(d_1 - o_{1,1})**2 - log(pi)/2")
    assert out.startswith("the gap $- ")
    assert "gap" not in _formulas(out)[0]


def test_symbols_read_as_the_paper_writes_them() -> None:
    out = sympy_text_to_latex("etahat**2*x**2 at etastar, sigma_0**2, E**x, -oo, Rbar*x")
    formulas = _formulas(out)
    assert formulas[0] == r"\hat{\eta}^{2} x^{2}"
    assert r"\sigma_{0}^{2}" in formulas
    assert "e^{x}" in formulas
    assert r"-\infty" in formulas
    assert r"\bar{R} x" in formulas


def test_existing_maths_and_code_are_kept() -> None:
    out = sympy_text_to_latex("kept $x**2$ and `y**2`, typeset z**2")
    assert out == "kept $x**2$ and `y**2`, typeset $z^{2}$"


def test_bracketed_and_called_names_are_left_alone() -> None:
    # "D[a]h(x,eta1)" is not a SymPy expression: it must not be cut into "D" and "[a]"
    out = sympy_text_to_latex("(-9)*u*D[a]h(x,eta1) + x**2")
    assert "D" not in "".join(_formulas(out))
    assert "$x^{2}$" in out


def test_outcome_and_reading_fill_their_latex_fields() -> None:
    r = Reading("lit", "2*d*h < d**2", Verdict.REFUTED, "gap d**2 - 2*d*h")
    d = r.to_dict()
    assert d["reading_latex"] == "$2 d h$ < $d^{2}$"
    assert _formulas(d["summary_latex"]) == [r"d^{2} - 2 d h"]
    o = Outcome(Verdict.PROVED, "ratio t**(-2)")
    assert o.to_dict()["summary_latex"] == r"ratio $\frac{1}{t^{2}}$"
    # a check's own LaTeX is kept, and plain prose gets none
    given = Reading("lit", "r", Verdict.PROVED, "x**2", summary_latex="$x^2$").to_dict()
    assert given["summary_latex"] == "$x^2$"
    assert Outcome(Verdict.PROVED, "simplifies to 0").to_dict()["summary_latex"] == ""


# -- typeset statements -------------------------------------------------------------

_MATHS = re.compile(r"[=<>≤≥≠∂‖Σ∑√∞^_·×∈≡≢]|[α-ωΓ-Ω]|\b[a-zA-Z]\d\b|\bO_P\b")


def _catalogued() -> list:  # type: ignore[type-arg]
    load_checks()
    return [get_claim(spec.id) for spec in CATALOGUE]


def test_every_catalogue_statement_with_maths_is_typeset() -> None:
    missing = [c.id for c in _catalogued()
               if _MATHS.search(c.statement) and not c.statement_latex]
    assert not missing, f"catalogued claims with maths but no statement_latex: {missing}"


@pytest.mark.parametrize("claim_id", [spec.id for spec in CATALOGUE])
def test_statement_latex_keeps_prose_outside_maths(claim_id: str) -> None:
    load_checks()
    latex = get_claim(claim_id).statement_latex
    assert latex.count("$") % 2 == 0
    for formula in _formulas(latex):
        bare = re.sub(r"\\(?:text|mathrm)\{[^{}]*\}", " ", formula)
        bare = re.sub(r"\\[A-Za-z]+", " ", bare)
        assert not re.search(r"\b[A-Za-z]{3,}\s+[A-Za-z]{3,}\b", bare), (claim_id, formula)
    assert not has_code_syntax(latex)


def test_registry_and_reports_carry_statement_latex(temp_claims) -> None:  # type: ignore[no-untyped-def]
    load_checks()
    assert get_claim("pcr.pde.cosine").statement_latex.startswith("For the cosine")

    def check(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, "ok")

    temp_claims("test.latex.given", check, statement_latex="$x^2 \\ge 0$ for real $x$")
    assert get_claim("test.latex.given").statement_latex == "$x^2 \\ge 0$ for real $x$"
    temp_claims("test.latex.none", check)
    assert get_claim("test.latex.none").statement_latex == ""
    with pytest.raises(ValueError, match="statement_latex must be a str with balanced"):
        claim(
            "test.latex.bad",
            reading="r",
            statement="s",
            seed_files=["x"],
            section="T",
            statement_latex="$x",
        )
    with pytest.raises(KeyError):
        get_claim("test.latex.bad")


def test_runner_prefers_the_checks_own_statement_latex(temp_claims) -> None:  # type: ignore[no-untyped-def]
    from moetheory.engine.verification import verify

    temp_claims(
        "test.latex.own",
        lambda ctx: Outcome(Verdict.PROVED, "ok", statement_latex="$a$ own"),
        statement_latex="$b$ registered",
    )
    temp_claims(
        "test.latex.reg",
        lambda ctx: Outcome(Verdict.PROVED, "ok"),
        statement_latex="$b$ registered",
    )
    try:
        report = verify(["test.latex.*"])
    finally:
        unregister("test.latex.own")
        unregister("test.latex.reg")
    by_id = {e["id"]: e for e in report["claims"]}
    assert by_id["test.latex.own"]["statement_latex"] == "$a$ own"
    assert by_id["test.latex.reg"]["statement_latex"] == "$b$ registered"


def test_opening_delimiters_take_no_space_in_terminal_text() -> None:
    from moetheory.engine.mathtext import latex_to_unicode

    assert latex_to_unicode(r"\lVert w_n\rVert^2 + \langle x, y\rangle") == "‖wₙ‖² + ⟨x, y⟩"
