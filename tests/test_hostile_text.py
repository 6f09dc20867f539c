"""Hostile texts given to the typesetters and TeX given to the displays (issue 44, items 3, 5).

Every text pass of the engine (the formula finder behind ``show``, the Markdown report and
the book; the notebook displays; the terminal's LaTeX to Unicode) must take time linear in
its input whatever the text: unclosed brackets, thousands of ``(``, runs of ``$``, ``**``
or backticks. And TeX from a report or a result must never become a live link or a style
in a page: ``\\href``, ``\\class``, ``\\style`` and the like are neutralised.
"""

from __future__ import annotations

import contextlib
import gc
import html
import re
import runpy
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moetheory.docs import _markup
from moetheory.engine import _prose, display, mathtext, terminal
from moetheory.engine import report as report_module

#: The text passes, each as a reader's output sees them.
PASSES: dict[str, Callable[[str], object]] = {
    "prose_myst": _prose.prose_myst,
    "prose_myst markdown": lambda t: _prose.prose_myst(t, markdown=True),
    "prose_myst cell": lambda t: _prose.prose_myst(t, markdown=True, cell=True),
    "prose_unicode": _prose.prose_unicode,
    "formula_latex": _prose.formula_latex,
    "prettify": mathtext.prettify,
    "has_code_syntax": mathtext.has_code_syntax,
    "latex_to_unicode": mathtext.latex_to_unicode,
    "sympy_text_to_latex": mathtext.sympy_text_to_latex,
    "markdown_text": display.markdown_text,
    "html_text": display.html_text,
    "book inline": lambda t: _markup._inline(t, True, False),
    "terminal Markdown": terminal.markdown_to_text,
    "terminal inline": terminal._inline,
}

#: Units of hostile texts, repeated to any length.
UNITS = {
    "half-open intervals": "[0, 1) ",
    "open parentheses": "(",
    "open brackets of two kinds": "[(",
    "unclosed calls": "f(",
    "dollars": "$a ",
    "stars": "**a ",
    "single stars": "*a ",
    "backticks": "`a ",
    "braced subscripts": "x_{",
    "parenthesised subscripts": "x_(a ",
    "sums then a call": "a + ",
    "dots": "1..2",
    "bars": "|a ",
    "equations": "x = ",
    "powers": "x**(",
    "fractions": "\\frac{",
    "backslashes": "\\",
    "tags": "<a ",
    "one letter": "a",
}


class _TooSlow(BaseException):  # not caught by a pass's own "except Exception"
    pass


@contextlib.contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Abort the block after ``seconds`` of CPU time (so a test fails fast on a slow pass)."""

    def expire(signum: int, frame: object) -> None:
        raise _TooSlow

    old = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def _cpu_seconds(run: Callable[[str], object], text: str, limit: float = 5.0) -> float:
    """CPU seconds of ``run(text)``, the garbage collector paused: in a long test session a
    full collection of the whole process's heap (a third of a second) once landed inside a
    4 kB measurement and read as quadratic time."""
    enabled = gc.isenabled()
    gc.disable()
    start = time.process_time()
    try:
        with _cpu_limit(limit):
            run(text)
    except _TooSlow:
        return float("inf")
    finally:
        if enabled:
            gc.enable()
    return time.process_time() - start


def _hostile(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]


# -- item 3: every text pass linear ------------------------------------------------------


@pytest.mark.parametrize("name", ["prose_myst", "prose_myst markdown", "book inline",
                                  "formula_latex"])
def test_half_open_intervals_are_typeset_at_once(name: str) -> None:
    """26 half-open intervals in a derivation took over 45 s (one search per open bracket,
    each repeated inside every other); now a few milliseconds."""
    text = "On " + " and ".join(f"[{k}, {k + 1})" for k in range(26)) + " the rate is x^2."
    assert _cpu_seconds(PASSES[name], text, limit=2.0) < 0.5


@pytest.mark.parametrize("text", ["(" * 3000, "(" * 3000 + ")" * 3000, "{" * 3000 + "}" * 3000,
                                  "x_{" * 3000, "\\sqrt{" * 3000, "f(" * 3000,
                                  "$" + "(" * 3000 + "$", "|" * 3000 + "x"])
@pytest.mark.parametrize("name", sorted(PASSES))
def test_deep_brackets_raise_nothing(name: str, text: str) -> None:
    """3,000 ``(`` raised RecursionError in the formula finder; deep nesting is text now."""
    PASSES[name](text)


def test_deep_brackets_stay_text() -> None:
    """Brackets nested beyond the bound are shown as written, not lost."""
    text = "(" * 100 + "x = 1" + ")" * 100
    out = _prose.prose_unicode(text)
    assert out.count("(") == 100 and out.count(")") == 100 and "x = 1" in out


def test_bold_of_a_long_summary_is_linear() -> None:
    """The notebook display's bold took quadratic time (a 60 kB summary: 16.7 s)."""
    text = _hostile("**a ", 60_000)
    assert _cpu_seconds(display.html_text, text, limit=3.0) < 1.0


@pytest.mark.parametrize("text", ["**a** and **b**", "**a **b** c**", "x **y** z **", "** a**",
                                  "a ** b ** c", "***a***", "**a\nb**", "**a*b**"])
def test_bold_unchanged_on_ordinary_texts(text: str) -> None:
    """The linear bold pairs the same markers as the old regular expression."""
    old = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"<b>\1</b>", html.escape(text, quote=False),
                 flags=re.S)
    old = re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"<i>\1</i>", old)
    assert display._inline_html(text) == old


@pytest.mark.slow
@pytest.mark.parametrize("unit", sorted(UNITS))
@pytest.mark.parametrize("name", sorted(PASSES))
def test_100_kB_hostile_texts_take_under_a_second(name: str, unit: str) -> None:
    """Issue 44's measure: every pass over 100 kB of any hostile text, under a second (a
    terminal table of 33,000 cells, linear but typeset cell by cell, under two)."""
    seconds = _cpu_seconds(PASSES[name], _hostile(UNITS[unit], 100_000))
    budget = 2.0 if name == "terminal Markdown" else 1.0
    assert seconds < budget, f"{name} on {unit}: {seconds:.2f} s"


_HOSTILE_CHARS = st.sampled_from([*"([{|‖)]}$*`_^\\ ax1=<-.,", "**", "$$", "x_{", "[0, 1)"])


@settings(max_examples=25, deadline=None)
@given(unit=st.lists(_HOSTILE_CHARS, min_size=1, max_size=12).map("".join),
       name=st.sampled_from(sorted(PASSES)))
def test_time_is_linear_in_length(unit: str, name: str) -> None:
    """Hypothesis: a text four times longer takes at most about four times longer (plus
    slack for a loaded machine), whatever the text."""
    short = _cpu_seconds(PASSES[name], _hostile(unit, 1_000), limit=2.0)
    long = _cpu_seconds(PASSES[name], _hostile(unit, 4_000), limit=2.0)
    assert long < 8 * short + 0.05, f"{name}: {short:.3f} s for 1 kB, {long:.3f} s for 4 kB"


# -- item 5: no script, link or style through maths ---------------------------------------

#: The commands that must never reach MathJax from a report.
_UNSAFE = re.compile(r"\\(?:href|url|class|cssId|style|data|unicode|require|bbox|mmlToken|def|"
                     r"newcommand|renewcommand|let)(?![A-Za-z])")
_CONTROL = re.compile(r"\\(?:[A-Za-z]+|.)", re.S)


def _without_code(text: str) -> str:
    """Markdown without its code spans (read as CommonMark does: a backslash escapes a
    backtick outside code, a span closes with a run of as many backticks)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == "\\":
            out.append(text[i:i + 2])
            i += 2
            continue
        if text[i] != "`":
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < n and text[j] == "`":
            j += 1
        run, k = text[i:j], j
        while (k := text.find(text[i:j], k)) >= 0 and (
            text[k - 1] == "`" or text[k + len(run):k + len(run) + 1] == "`"
        ):
            while k < n and text[k] == "`":
                k += 1
        if k < 0:
            out.append(run)
            i = j
        else:
            out.append(" ")
            i = k + len(run)
    return "".join(out)


def _live_commands(page: str) -> list[str]:
    """The unsafe control words MathJax would read in ``page`` (after the browser or a
    Markdown renderer decodes its character references); code is shown, never typeset."""
    text = _without_code(re.sub(r"<(code|pre)>.*?</\1>", " ", page, flags=re.S))
    return [t for t in _CONTROL.findall(html.unescape(text)) if _UNSAFE.fullmatch(t)]


_ATTACKS = [
    r"$\href{javascript:alert(1)}{x}$",
    r"$$\class{x}{y} \style{position:fixed}{z}$$",
    r"see $\cssId{a}{b} + \data{k=v}{c}$ and $\unicode[Arial]{x41}$",
    r"$\require{html} \def\h{\href} \h{javascript:x}{y}$",
    r"$&#92;href{javascript:alert(1)}{x}$",
    r"$\&#104;ref{javascript:alert(1)}{x}$",
    r"$&bsol;href{javascript:alert(1)}{x}$",
    r"$\bbox[border:9em solid red]{x} \mmlToken{mi}[href='javascript:x']{y}$",
]

#: Every writer of maths a reader's page or notebook gets.
WRITERS: dict[str, Callable[[str], str]] = {
    "notebook HTML": lambda t: display.Card("t", summary=t).html(),
    "notebook Markdown": lambda t: display.Card("t", summary=t).markdown(),
    "prose_myst": lambda t: _prose.prose_myst(t, markdown=True),
    "book inline": lambda t: _markup._inline(t, True, False),
    "book display line": lambda t: "\n".join(_markup._math_line(t.replace("$$", "$").replace(
        "$", "$$", 2) if t.startswith("$") else t)),
    "report summary": lambda t: report_module._latex_or_text(t, "plain"),
    "report plain": lambda t: report_module._latex_or_text("", t),
    "report evidence": lambda t: report_module._render_value({"sympy": "x", "latex": t}),
}


@pytest.mark.parametrize("attack", _ATTACKS)
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_no_live_link_class_or_style_from_tex(writer: str, attack: str) -> None:
    """``$\\href{javascript:…}$`` in a report survived as a live link in notebook HTML and
    Markdown and in the book; now every such command is written out as text."""
    assert _live_commands(WRITERS[writer](attack)) == []


def test_safe_tex_keeps_ordinary_tex() -> None:
    """Only the hazards change: the TeX of the checks is kept as written."""
    ordinary = (r"\left\| x \right\|^{2} \le \frac{1}{2} \sum_{i} \mathbb{E}[F] \\ "
                r"\begin{matrix}1 & 0\end{matrix} \text{a.e.} \& 5\%")
    assert mathtext.safe_tex(ordinary) == ordinary
    assert mathtext.latex_to_unicode(mathtext.safe_tex(r"\href{u}{x}")).startswith("\\href")


def test_docs_mathjax_loads_the_safe_filter() -> None:
    """The book's MathJax loads ui/safe (vendored by sphinx-mathjax-offline) and allows no
    ``javascript:`` or ``data:`` URL."""
    conf = runpy.run_path(str(Path(__file__).resolve().parents[1] / "docs" / "conf.py"))
    config = conf["mathjax3_config"]
    assert "ui/safe" in config["loader"]["load"]
    safe = config["options"]["safeOptions"]
    assert safe["allow"]["URLs"] == "safe"
    assert not safe["safeProtocols"].get("javascript") and not safe["safeProtocols"].get("data")


_TEX_PIECES = st.sampled_from([
    "\\href", "\\url", "\\class", "\\style", "\\cssId", "\\data", "\\unicode", "\\require",
    "\\def", "\\", "\\\\", "&#92;", "&bsol;", "&", "#", "{", "}", "$", "$$", "`", "h", "ref",
    "javascript:alert(1)", " ", "x", "\\frac", "<", "&#104;", ";", "*", "_",
])


@settings(max_examples=150, deadline=None)
@given(text=st.lists(_TEX_PIECES, max_size=30).map("".join),
       writer=st.sampled_from(sorted(WRITERS)))
def test_no_live_command_whatever_the_tex(text: str, writer: str) -> None:
    """Hypothesis over TeX given to the displays: no unsafe command is ever live."""
    assert _live_commands(WRITERS[writer](text)) == []


@pytest.mark.parametrize("text", ["a + " * 5000 + "a(", "(" * 20_000, "-(" * 10_000])
def test_sympy_expressions_found_in_bounded_time(text: str) -> None:
    """Each start of an expression was read again to the end of the text (a 20 kB sum ending
    in a broken call: 39 s); the parser's budget per text bounds it."""
    assert _cpu_seconds(mathtext.sympy_text_to_latex, text, limit=3.0) < 1.0


@pytest.mark.parametrize("text", ["\\begin{matrix}" * 3000, "x_{" * 800, "(" * 5000 + "x"])
def test_latex_to_unicode_in_bounded_time(text: str) -> None:
    """Unclosed environments and braces were searched to the end once per opening."""
    assert _cpu_seconds(mathtext.latex_to_unicode, text, limit=3.0) < 1.0
