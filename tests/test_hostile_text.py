"""Hostile texts given to the typesetters and TeX given to the displays (issue 44, items 3, 5).

Every text pass of the engine (the formula finder behind ``show``, the Markdown report and
the book; the notebook displays; the terminal's LaTeX to Unicode) must take time linear in
its input whatever the text: unclosed brackets, thousands of ``(``, runs of ``$``, ``**``
or backticks. And TeX from a report or a result must never become a live link or a style
in a page: ``\\href``, ``\\class``, ``\\style`` and the like are neutralised.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moetheory.docs import _markup
from moetheory.engine import _prose, display, mathtext

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


class _TooSlow(Exception):
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
    start = time.process_time()
    try:
        with _cpu_limit(limit):
            run(text)
    except _TooSlow:
        return float("inf")
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
    import html
    import re

    old = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"<b>\1</b>", html.escape(text, quote=False),
                 flags=re.S)
    old = re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"<i>\1</i>", old)
    assert display._inline_html(text) == old


@pytest.mark.slow
@pytest.mark.parametrize("unit", sorted(UNITS))
@pytest.mark.parametrize("name", sorted(PASSES))
def test_100_kB_hostile_texts_take_under_a_second(name: str, unit: str) -> None:
    """Issue 44's measure: every pass over 100 kB of any hostile text, under a second."""
    seconds = _cpu_seconds(PASSES[name], _hostile(UNITS[unit], 100_000))
    assert seconds < 1.0, f"{name} on {unit}: {seconds:.2f} s"


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
