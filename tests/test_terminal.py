"""``moetheory show`` and ``moetheory list`` as a person reads them; maths as Unicode text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moetheory.engine import cli
from moetheory.engine.mathtext import has_code_syntax, latex_to_unicode, prettify
from moetheory.engine.terminal import evidence_rows, markdown_to_text, render_claim_text

ENTRY = {
    "id": "pcr.pde.perturbed",
    "seed_file": "002_ed39350ac6d6e1c0.txt",
    "seed_files": ["002_ed39350ac6d6e1c0.txt"],
    "statement": "beta1^T dH/dbeta1 = (tau1*u/((n_b + tau1)**2*(n_x + tau2)))*H != 0 " * 3,
    "reading": "all x != 0 and tau1, tau2 > 0, the limit as n_b -> oo",
    "kind": "exact",
    "claim_seed": 7,
    "alpha": None,
    "verdict": "proved",
    "summary": "residual is E**(-x) * x**2, never 0",
    "sources": [{"seed_file": "002_ed39350ac6d6e1c0.txt", "lines": [56, 57]}],
    "evidence": {
        "residual": {"sympy": "tau1*u/(n_b + tau1)**2", "latex": "\\frac{\\tau_{1} u}{(n_{b} + "
                     "\\tau_{1})^{2}}"},
        "n": 10000,
        "ci": [0.25, 0.75],
        "nested": {"deep": {"value": 1.23456789}},
    },
    "readings": [
        {"name": "literal", "reading": "r", "verdict": "proved", "summary": "x**2 > 0",
         "evidence": {}, "derivation": ""},
    ],
    "derivation": "**Step 1.** Differentiate:\n\n$$\n\\frac{\\partial s}{\\partial \\beta_1} "
    "= \\frac{x}{\\|\\beta_1\\|}\n$$\n\nso $s^{2} \\le 1$.",
}


@pytest.fixture
def report_file(tmp_path: Path) -> Path:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"schema": "moetheory-report/1", "claims": [ENTRY]}))
    return path


def _no_verify(*args: object, **kwargs: object) -> None:
    raise AssertionError("show --report must not re-run the check")


def test_show_from_a_report_does_not_rerun(
    report_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "verify", _no_verify)
    monkeypatch.setenv("COLUMNS", "72")
    assert cli.main(["show", "pcr.pde.perturbed", "--report", str(report_file)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "pcr.pde.perturbed — PROVED"
    assert max(len(line) for line in lines) <= 72
    assert not any(has_code_syntax(line) for line in lines)
    # the formulas of plain text typeset in Unicode (issue 31): subscripts, no ** or _{
    assert "(τ₁ u/((n_b + τ₁)² (nₓ + τ₂))) H ≠ 0" in out and "e^(-x) · x²" in out
    assert "n_b → ∞" in out and "x ≠ 0 and τ₁, τ₂ > 0" in out
    assert "seed 002 (002_ed39350ac6d6e1c0.txt), lines 56, 57" in " ".join(out.split())
    text = out.replace("\n", " ")
    order = [text.index(k) for k in ("Statement", "Reading", "Derivation", "Verdict", "Evidence")]
    assert order == sorted(order)
    assert "∂s/∂β₁ = x/‖β₁‖" in out and "s² ≤ 1" in out


def test_show_evidence_is_an_aligned_table(
    report_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    cli.main(["show", "pcr.pde.perturbed", "--report", str(report_file), "--evidence"])
    out = capsys.readouterr().out
    table = out.split("Evidence\n", 1)[1].split("Readings\n", 1)[0].splitlines()
    starts = {line.index(value) for line, value in zip(
        table, ("(τ₁", "10000", "[0.25, 0.75]", "1.23457"), strict=True)}
    assert len(starts) == 1  # the values form one column
    assert "nested › deep › value" in out


def test_show_prints_an_evidence_digest_unless_asked_for_all(
    report_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 45: the evidence was dumped whole by default
    monkeypatch.setenv("COLUMNS", "80")
    cli.main(["show", "pcr.pde.perturbed", "--report", str(report_file)])
    short = capsys.readouterr().out
    cli.main(["show", "pcr.pde.perturbed", "--report", str(report_file), "-v"])
    full = capsys.readouterr().out
    assert "nested › deep › value" in full and "nested" not in short
    assert "1 more row with --evidence" in " ".join(short.split())
    assert "10000" in short and "[0.25, 0.75]" in short  # the top-level facts
    assert len(short.splitlines()) < len(full.splitlines())


def test_show_of_a_one_line_identity_fits_a_screen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 45: `show pcr.pde.cosine` printed 89 lines (about 50 of them evidence); the
    # check itself is exact and cheap
    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main(["show", "pcr.pde.cosine"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 40 and max(len(line) for line in lines) <= 80
    starts = [next(i for i, line in enumerate(lines) if line.startswith(label))
              for label in ("Statement", "Reading", "Derivation", "Verdict", "Evidence")]
    assert starts == sorted(starts)
    assert lines[starts[3]].startswith("Verdict     proved")
    assert "residual_closed_form" in "\n".join(lines[starts[4]:])


def test_show_formats(
    report_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "verify", _no_verify)
    cli.main(["show", "pcr.pde.perturbed", "--report", str(report_file), "--format", "json"])
    assert json.loads(capsys.readouterr().out) == ENTRY
    cli.main(["show", "pcr.pde.perturbed", "--report", str(report_file), "--format", "markdown"])
    assert capsys.readouterr().out.startswith('<a id="pcrpdeperturbed"></a>')


def test_show_bad_input_is_one_clear_line(
    tmp_path: Path, report_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["show", "no.such", "--report", str(report_file)]) == 2
    assert "holds no claim 'no.such'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert cli.main(["show", "x", "--report", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("moetheory: error: --report") and "not valid JSON" in err
    assert len(err.strip().splitlines()) == 1
    assert cli.main(["show", "x", "--report", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert cli.main(["list", "--report", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_list_has_a_header_titles_and_a_filter(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert cli.main(["list", "pcr.pde.*"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ID", "SEED", "CHECK", "TITLE"]
    assert all(line.startswith("pcr.pde.") for line in lines[1:-1])
    assert "For the cosine router" in lines[1]
    assert max(len(line) for line in lines) <= 120
    assert lines[-1].startswith(f"{len(lines) - 2} claims:")
    assert cli.main(["list", "no.such.*"]) == 2
    assert "match no claim" in capsys.readouterr().err


def test_list_fits_80_columns_with_whole_words_and_a_telling_column(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 45: at 80 columns titles were cut to a few characters mid-word and the status
    # column said `implemented` on every row
    from moetheory.engine.registry import registered

    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80
    claims = {c.id: c for c in registered()}
    rows = [line.split() for line in lines if line.split() and line.split()[0] in claims]
    assert len(rows) == len(claims)
    assert {row[2] for row in rows} == {"exact", "statistical"}
    assert all(row[2] == claims[row[0]].kind for row in rows)
    titles = [line.strip() for line in lines[2:-1] if line.startswith("    ")]
    assert len(titles) == len(claims)
    assert all(len(t) >= 60 for t in titles if t.endswith("…"))  # cut only when long
    cosine = titles[[row[0] for row in rows].index("pcr.pde.cosine")]
    assert cosine.startswith("For the cosine router") and "(eq. 4)" in cosine
    words = " ".join(claims["pcr.pde.cosine"].statement.split())
    assert cosine.endswith("…") and cosine[:-1].split()[-1] in words.split()


def test_verify_ends_with_a_digest_of_what_was_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 45: verify printed counts only ("refuted 93" did not say that 93 statements of
    # the papers were found false, nor which)
    from moetheory.engine.registry import get_claim

    monkeypatch.setenv("COLUMNS", "80")
    report = tmp_path / "r.json"
    claims = ["pcr.pde.each-noise", "pcr.pde.cosine"]
    assert cli.main(["verify", *(a for c in claims for a in ("--only", c)), "--no-progress",
                     "--json", str(report)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "2 claims checked: proved 1, refuted 1"
    assert max(len(line) for line in lines if str(report) not in line) <= 80
    assert "found false" in out and "only error is a check that failed" in " ".join(lines)
    at = lines.index("Refuted in Nguyen et al. (2025): 1")
    row = lines[at + 1].split()
    assert row[0] == "pcr.pde.each-noise"
    assert " ".join(get_claim("pcr.pde.each-noise").statement.split()).startswith(
        " ".join(row[1:]).rstrip("…"))
    assert "pcr.pde.cosine" not in out.split("claims checked")[1]  # proved: not listed
    assert "Inconclusive" not in out
    assert f"One claim in full: moetheory show ID --report {report}" in lines
    assert lines[-1] == f"wrote {report}"


def test_the_digest_says_what_would_decide_each_inconclusive_claim() -> None:
    from moetheory.engine.terminal import render_digest

    sized = ("**Reading `paper`.** Inconclusive for want of replicates, not for the "
             "mathematics: the pilot says about 43 replicates would decide it. Replicates: 6.")
    report = {"claims": [
        {"id": "a.sized", "verdict": "inconclusive", "statement": "s", "derivation": sized},
        {"id": "a.named", "verdict": "inconclusive", "statement": "s",
         "evidence": {"to_decide": "the full profile"}},
        {"id": "a.timed", "verdict": "inconclusive", "statement": "s",
         "summary": "time limit exceeded"},
        {"id": "a.crash", "verdict": "error", "statement": "s", "summary": "ZeroDivisionError"},
        {"id": "a.mine", "verdict": "unsupported", "statement": "My own claim holds. Also."},
    ]}
    lines = render_digest(report, width=80).splitlines()
    after = {lines[i - 1].strip(): lines[i].strip() for i in range(1, len(lines))}
    assert after["a.sized"] == "the pilot says about 43 replicates would decide it."
    assert after["a.named"] == "to decide it: the full profile"
    assert after["a.timed"] == "time limit exceeded"
    assert after["a.crash"] == "ZeroDivisionError"
    assert "Unsupported in your claims: 1" in lines
    assert lines[lines.index("Unsupported in your claims: 1") + 1].split() == [
        "a.mine", "My", "own", "claim", "holds."]
    assert "Errors (the check failed, not the claim): 1" in lines


def test_list_shows_the_verdicts_of_a_report(
    report_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["list", "pcr.pde.*", "--report", str(report_file)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[2] == "VERDICT"
    row = next(line for line in lines if line.startswith("pcr.pde.perturbed "))
    assert row.split()[2] == "proved"
    other = next(line for line in lines if line.startswith("pcr.pde.cosine "))
    assert "not in report" in other


def test_list_json_keeps_its_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert set(records[0]) == {"id", "statement", "kind", "seed_files", "sources", "covers",
                               "origin", "section", "implemented"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x**2 + y**(-1)", "x² + y⁻¹"),
        ("(a + b)**(n + 1)", "(a + b)^(n + 1)"),
        ("-oo < x < oo", "−∞ < x < ∞"),
        ("2*E**x", "2·e^x"),
        ("E[F_t] for Eq. (3)", "E[F_t] for Eq. (3)"),  # expectation, not Euler's number
        ("sqrt(tau2)*beta1", "√(τ₂)·β₁"),
        ("zoom into the loop", "zoom into the loop"),  # words containing 'oo' are words
    ],
)
def test_prettify(text: str, expected: str) -> None:
    assert prettify(text) == expected
    assert not has_code_syntax(prettify(text))


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        ("\\frac{a + b}{2}", "(a + b)/2"),
        ("x_{n}^{2}", "xₙ²"),
        ("\\sqrt{\\log(n)/n}", "√(log(n)/n)"),
        ("\\hat{\\eta} \\neq \\eta^{*}", "η̂ ≠ η*"),
        ("\\mathcal{O}_P(n^{-1/2})", "O_P(n^(-1/2))"),
        ("\\left( \\tfrac{1}{t-1} \\right)", "(1/(t-1))"),
        # a product with a norm is not one factor: "u/ε|x|" read as (u/ε)·|x|
        ("\\frac{u}{\\varepsilon|x|}", "u/(ε|x|)"),
        ("\\frac{u}{|x|} + \\frac{|x|}{\\|\\beta\\|}", "u/|x| + |x|/‖β‖"),
    ],
)
def test_latex_to_unicode(latex: str, expected: str) -> None:
    assert latex_to_unicode(latex) == expected


def test_has_code_syntax_is_not_fooled_by_bold() -> None:
    assert has_code_syntax("E**(-x)") and has_code_syntax("limit oo")
    assert not has_code_syntax("**Statement.** proved") and not has_code_syntax("∞")


def test_markdown_to_text_and_evidence_rows() -> None:
    assert markdown_to_text("# Head\n\ntext `code` [link](x.md)") == ["Head", "text code link"]
    assert evidence_rows({"a": {"b": True, "c": None}}) == [("a › b", "yes"), ("a › c", "—")]
    text = render_claim_text({**ENTRY, "readings": []}, width=60)
    assert all(len(line) <= 60 for line in text.splitlines())


def test_markdown_tables_in_a_derivation_print_as_aligned_rows() -> None:
    from moetheory.engine.terminal import render_claim_text

    derivation = (
        "Readings:\n\n| reading | verdict | why |\n|---|---|---|\n"
        "| literal | refuted | exact dependence |\n| pcos-2 | proved | 20 functions |\n\nDone."
    )
    entry = {"id": "x", "verdict": "refuted", "statement": "s", "derivation": derivation}
    lines = render_claim_text(entry, width=80).splitlines()
    assert not any("|---" in line or "| |" in line for line in lines)
    row = next(line for line in lines if "literal" in line)
    other = next(line for line in lines if "pcos-2" in line)
    assert row.index("refuted") == other.index("proved")  # the columns line up
    assert any(line.strip() == "Done." for line in lines)


def test_a_table_that_starts_on_a_line_of_text_is_still_a_table() -> None:
    # `show cl.prop1.convergence` printed "Reading paper. | comparison | estimate | CI |" as
    # prose: a reading's derivation that starts with its table, after the reading's name
    text = ("**Reading `paper`.** | comparison | estimate |\n|---|---|\n| P(x) > 1/2 | 0 |\n\n"
            "After.")
    paragraphs = markdown_to_text(text)
    assert paragraphs[0] == "Reading paper."
    assert paragraphs[1].split("\n")[1:] == ["comparison\x1festimate", "P(x) > 1/2\x1f0"]
    assert paragraphs[2] == "After."


def test_escaped_pipes_stay_inside_their_table_cell() -> None:
    # a label such as "max_m |f − 1/M|" is written "max_m \|f − 1/M\|" in a Markdown table;
    # the terminal must not split the cell there (found in `moetheory show cl.lemma8.*`)
    from moetheory.engine.terminal import render_claim_text

    derivation = ("| comparison | estimate | verdict |\n|---|---|---|\n"
                  "| max_m \\|f − 1/M\\|: exponent | 1.04 | supported |\n"
                  "| plain | 2.5 | unsupported |\n")
    entry = {"id": "x", "verdict": "supported", "statement": "s", "derivation": derivation}
    lines = render_claim_text(entry, width=100).splitlines()
    row = next(line for line in lines if "1.04" in line)
    other = next(line for line in lines if "plain" in line)
    assert "maxₘ |f - 1/M|: exponent" in row and "\\" not in row  # typeset in Unicode
    assert row.index("1.04") == other.index("2.5")  # the columns still line up
    assert row.index("supported") == other.index("unsupported")


def test_an_asterisk_in_maths_is_not_an_emphasis_mark() -> None:
    """`moetheory show pcr.rates.top1.over-specified` printed "beta_01^() each" and
    "beta_0 superscript-= (0.1, 0)": the emphasis pass paired the asterisks of $\\beta^*$ across
    two maths spans and deleted them before the maths were converted."""
    text = ("the *split* target, with $\\beta_{01}^*-\\log 2$ each under Top-K and "
            "$\\beta_{01}^*$ each under top-1; truth $\\beta_0^*=(0.1,0)$, regions $X^*_j$")
    out = markdown_to_text(text)[0]
    assert out == ("the split target, with β₀₁*-log 2 each under Top-K and β₀₁* each under "
                   "top-1; truth β₀*=(0.1,0), regions X*ⱼ")


def test_nested_formulas_and_matrices_in_evidence_are_typeset() -> None:
    # `moetheory show cl.update.min-norm` printed the JSON of its certificates
    # ('"latex": "\\left[\\begin{matrix}0\\end{matrix}\\right]"') and j91.whole-output a
    # mapping of formulas as JSON with o_{1,1} keys
    from moetheory.engine.terminal import evidence_rows

    half = {"sympy": "1/10", "latex": "\\frac{1}{10}"}
    column = {"sympy": "Matrix([[0], [0]])",
              "latex": "\\left[\\begin{matrix}0\\\\0\\end{matrix}\\right]"}
    rows = dict(evidence_rows({
        "residuals": [[[0, 0], [half, 0]]],
        "certificates": [{"d": 3, "residual": column, "ok": True}],
        "points": [{"o_{1,1}": {"sympy": "d_1", "latex": "d_{1}"}}],
    }))
    assert rows == {"residuals": "[[[0, 0], [1/10, 0]]]",
                    "certificates": "[{d: 3, residual: [0; 0], ok: yes}]",
                    "points": "[{o_(1, 1): d₁}]"}


def test_the_markdown_report_names_seed_lines_in_words() -> None:
    # every claim of the Markdown report printed its seed lines as an indented JSON array
    # ("*Seed lines:* 002_….txt [\n  44,\n  46\n]")
    from moetheory.engine.report import render_claim

    text = render_claim(ENTRY)
    assert "*Seed lines:* seed 002 (002_ed39350ac6d6e1c0.txt), lines 56, 57\n" in text


@pytest.mark.parametrize("text", [
    "as j91.vowel.epochs (loss 1.3 sign-corrected, lr 1, full batch)",
    "j91.grad.1.5 is refuted; see j91.grad.1.5.corrected",
    "see cl.thm1.forgetting-bound and moetheory.engine.shared",
])
def test_a_dotted_name_is_printed_as_written(text: str) -> None:
    """A claim ID is a name, not mathematics: `moetheory show j91.vowel.scaling` printed its
    reading 'as j₉₁.vowel.epochs' (the prose reader took the letter and digits before the
    first dot for a subscripted symbol)."""
    from moetheory.engine._prose import prose_myst, prose_unicode

    assert prose_unicode(text) == text
    assert prose_myst(text) == text
    assert prose_unicode("with x1 and tau1, e.g. 1.5") == "with x₁ and τ₁, e.g. 1.5"


# -- a derivative at a point, as a terminal shows it (issue 45: "d/(d c) s(c )|_(c=1)") -------

_VARIABLES = [("c", "c"), ("x", "x"), (r"\beta_{1}", "β₁"), ("t_{2}", "t₂"), (r"\tau", "τ")]


def _derivative_case(var: int, order: int, partial: bool, args: int, bar: str,
                     point: int) -> tuple[str, str]:
    """A derivative-at-a-point in one of the LaTeX shapes SymPy or a check writes, and the
    text a reader should see."""
    tex, text = _VARIABLES[var]
    d_tex, d_text = (r"\partial", "∂") if partial else ("d", "d")
    sup_tex = f"^{{{order}}}" if order > 1 else ""
    sup_text = "²³"[order - 2] if order > 1 else ""
    operator = rf"\frac{{{d_tex}{sup_tex}}}{{{d_tex} {tex}{sup_tex}}}"
    names = [tex, "y", "z"][:args]
    call = rf"s{{\left({','.join(names)} \right)}}"
    point_tex = f"{tex}={point}"
    shapes = {
        "Big": rf"{operator} {call}\Big|_{{{point_tex}}}",
        "big": rf"{operator} {call}\big|_{{{point_tex}}}",
        "bare": rf"{operator} {call}|_{{{point_tex}}}",
        "subs": rf"\left. {operator} {call} \right|_{{\substack{{ {point_tex} }}}}",
    }
    called = ",".join([text, "y", "z"][:args])
    expected = f"{d_text}{sup_text}/{d_text}{text}{sup_text} s({called})|_({text}={point})"
    return shapes[bar], expected


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        (r"\frac{d}{d c} s{\left(c \right)}\Big|_{c=1} = 0", "d/dc s(c)|_(c=1) = 0"),
        (r"\left. \frac{d}{d c} s{\left(c \right)} \right|_{\substack{ c=1 }}", "d/dc s(c)|_(c=1)"),
        (r"\frac{d^{2}}{d x^{2}} f{\left(x \right)}", "d²/dx² f(x)"),
        (r"\frac{\partial^{2}}{\partial x\partial c} s{\left(x,c \right)}", "∂²/∂x∂c s(x,c)"),
        (r"\left. \frac{\partial^{2}}{\partial x\partial c} s{\left(x,c \right)} "
         r"\right|_{\substack{ c=1\\ x=2 }}", "∂²/∂x∂c s(x,c)|_(c=1, x=2)"),
        (r"\frac{d}{dc} e^{s(x, c\beta_1)} h(x,\eta)\big|_{c=1}", "d/dc e^s(x, cβ₁) h(x,η)|_(c=1)"),
        (r"\frac{d y}{d x}", "dy/dx"),
        (r"\frac{a + b}{d c}", "(a + b)/(d c)"),  # a quotient by a product, not an operator
    ],
)
def test_derivative_at_a_point_reads_as_written(latex: str, expected: str) -> None:
    assert latex_to_unicode(latex) == expected


@given(var=st.integers(0, len(_VARIABLES) - 1), order=st.integers(1, 3), partial=st.booleans(),
       args=st.integers(1, 3), bar=st.sampled_from(["Big", "big", "bare", "subs"]),
       point=st.integers(-3, 9))
def test_every_derivative_at_a_point_shape_reads_as_written(
        var: int, order: int, partial: bool, args: int, bar: str, point: int) -> None:
    latex, expected = _derivative_case(var, order, partial, args, bar, point)
    assert latex_to_unicode(latex) == expected


@pytest.mark.parametrize("order", [1, 2])
def test_sympys_own_derivative_at_a_point_reads_as_written(order: int) -> None:
    import sympy as sp

    c, x = sp.symbols("c x")
    s = sp.Function("s")
    text = latex_to_unicode(sp.latex(sp.Subs(sp.Derivative(s(x, c), (c, order)), c, 1)))
    assert text == ("∂/∂c" if order == 1 else "∂²/∂c²") + " s(x,c)|_(c=1)"


def test_a_derivations_table_fits_the_width_and_keeps_every_word() -> None:
    # pcr.pde.implementations' table was 102 columns wide at 80 (only the last column
    # wrapped) and pcr.ident.consistency's first column was cut at 40 characters
    cells = [["clamp-both", "‖β₁‖ < ε, ‖x‖ > ε", "(β₁ᵀ x)/(ε‖x‖)",
              "fails unless β₁ᵀ x = 0 or h(x, η) = 0"],
             ["002 Example: ReLU(aᵀ x + b) is strongly identifiable for every atom", "SI",
              "no", "False"]]
    table = "| variant | piece | residual / H | (4) |\n|---|---|---|---|\n" + "".join(
        "| " + " | ".join(row) + " |\n" for row in cells)
    for width in (80, 60):
        text = render_claim_text({**ENTRY, "readings": [], "derivation": table}, width=width)
        assert max(len(line) for line in text.splitlines()) <= width
        words = set(text.split())
        assert all(set(cell.split()) <= words for row in cells for cell in row)
