r"""Mathematics as a reader sees it: plain text without code syntax, LaTeX as Unicode.

Checks write their summaries in plain text, often with SymPy's printed syntax
(``(n_b + tau1)**2``, ``oo``, ``2*d*h``). A reader of a report, a terminal or a web page
should see :math:`(n_b + \tau_1)^2`, :math:`\infty` and :math:`2 \cdot d \cdot h` instead
(in Unicode on a terminal, typeset on a page). This module holds the two
conversions every output shares:

* :func:`prettify` -- SymPy-printed plain text to readable Unicode text;
* :func:`latex_to_unicode` -- a LaTeX formula to Unicode text for a terminal;
* :func:`safe_tex` -- TeX from a report or a result, with every command that could make a
  link, a class, a style or load an extension in a page written out as text;
* :func:`sympy_text_to_latex` -- the typeset form of a text holding SymPy-printed
  expressions (each expression set as ``$...$`` LaTeX by :func:`sympy.printing.latex`), which
  fills the ``*_latex`` fields of every :class:`~moetheory.engine.verdicts.Outcome` and
  :class:`~moetheory.engine.verdicts.Reading` whose check gives none.

All are deterministic (string rewrites and exact SymPy arithmetic, no floating point), so
the same input gives the same text on every machine.

Examples
--------
>>> prettify("tau1*u/((n_b + tau1)**2*(n_x + tau2)) -> oo")
'τ₁·u/((n_b + τ₁)²·(n_x + τ₂)) → ∞'
>>> latex_to_unicode(r"\frac{1}{\sqrt{n}} \le \epsilon_{1}")
'1/√n ≤ ε₁'
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = ["has_code_syntax", "latex_to_unicode", "prettify", "safe_tex", "sympy_text_to_latex"]

_SUPER = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_SUB = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
    "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ",
    "tau": "τ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ",
    "Psi": "Ψ", "Omega": "Ω",
}

_SYMBOLS = {
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
    "sim": "∼", "equiv": "≡", "infty": "∞", "cdot": "·", "times": "×", "pm": "±",
    "mp": "∓", "to": "→", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒",
    "iff": "⇔", "Leftrightarrow": "⇔", "mapsto": "↦", "in": "∈", "notin": "∉",
    "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩", "emptyset": "∅",
    "forall": "∀", "exists": "∃", "partial": "∂", "nabla": "∇", "sum": "Σ", "prod": "Π",
    "int": "∫", "ldots": "…", "cdots": "⋯", "dots": "…", "lVert": "‖", "rVert": "‖",
    "Vert": "‖", "|": "‖", "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉",
    "lfloor": "⌊", "rfloor": "⌋", "neg": "¬", "land": "∧", "lor": "∨", "circ": "∘",
    "star": "⋆", "ell": "ℓ", "top": "ᵀ", "intercal": "ᵀ", "prime": "′", "log": "log",
    "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tanh": "tanh", "max": "max",
    "min": "min", "sup": "sup", "inf": "inf", "lim": "lim", "det": "det", "quad": "  ",
    "qquad": "    ", ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "{": "{", "}": "}",
    "%": "%", "$": "$", "&": "&", "_": "_", "#": "#", "backslash": "\\",
}
_SYMBOLS.update(_GREEK)

_BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "E": "𝔼", "P": "ℙ"}

_GREEK_WORD = re.compile(
    r"(?<![A-Za-z_\\])(" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(\d*)(?![A-Za-z])"
)
_POWER = re.compile(r"\*\*\s*(-?\d+|[A-Za-z]\w*|\((?:[^()]|\([^()]*\))*\))")
_TIMES = re.compile(r"(?<=[\w)\]²³¹⁰⁴⁵⁶⁷⁸⁹ᵀ])\*(?=[\w(√])")
_INFINITY = re.compile(r"(?<![\w.])(-?)oo(?!\w)")
_EULER = re.compile(r"(?<![\w.])E(?=\*\*|\^)|(?<=[*·])E(?![\w\[(])")


def _superscript(text: str) -> str:
    m = re.fullmatch(r"\((-?\d+)\)", text)
    text = m.group(1) if m else text
    if re.fullmatch(r"-?\d+|n", text):
        return text.replace("-", "⁻").translate(_SUPER)
    return "^" + text


def prettify(text: str) -> str:
    """Rewrite SymPy-printed plain text as readable Unicode text.

    Parameters
    ----------
    text : str
        Plain text (a summary, a reading), possibly holding SymPy's printed syntax.

    Returns
    -------
    str
        The same text with ``**`` powers as Unicode superscripts (or a caret where Unicode
        has none), ``*`` products as a middle dot, ``oo`` as the infinity sign, ``E``
        (Euler's number, next to ``**`` or ``*``) as ``e``, ``sqrt(`` as the root sign,
        ``->``, ``>=``, ``<=`` and ``!=`` as the arrow and relation signs, and Greek names
        (``tau1``) as Greek letters with Unicode subscripts (see Examples).

    See Also
    --------
    sympy_text_to_latex : the same text with its SymPy expressions typeset.
    latex_to_unicode : a LaTeX formula as Unicode text.

    Notes
    -----
    A rewrite, not a parse: it never changes the words of the text, only its code
    spellings. Inline ``$...$`` spans are LaTeX and are left untouched.

    Examples
    --------
    >>> prettify("2*d*h < d**2 needs h < d/2, not d^2")
    '2·d·h < d² needs h < d/2, not d²'
    >>> prettify("gap etahat**2*x**2, E**(-x) and $x**2$ kept")
    'gap etahat²·x², e^(-x) and $x**2$ kept'
    """
    parts = re.split(r"(\$[^$]+\$)", text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part)
            continue
        s = part.replace("->", "→").replace(">=", "≥").replace("<=", "≤").replace("!=", "≠")
        s = _EULER.sub("e", s)
        s = _POWER.sub(lambda m: _superscript(m.group(1)), s)
        s = re.sub(r"(?<=[\w)])\^(\d+)(?![\w.])", lambda m: m.group(1).translate(_SUPER), s)
        s = _TIMES.sub("·", s)
        s = re.sub(r"(?<=[\w)²³¹⁰⁴⁵⁶⁷⁸⁹]) \* (?=[\w(√])", " · ", s)
        s = _INFINITY.sub(lambda m: ("−" if m.group(1) else "") + "∞", s)
        s = re.sub(r"(?<![\w.])sqrt\(", "√(", s)
        s = _GREEK_WORD.sub(lambda m: _GREEK[m.group(1)] + m.group(2).translate(_SUB), s)
        out.append(s)
    return "".join(out)


def has_code_syntax(text: str) -> bool:
    """Whether plain text still shows SymPy code syntax (``**``, ``oo``, ``E**``).

    Markdown bold (``**word**``) is not code syntax.

    Parameters
    ----------
    text : str
        Text as a reader would see it.

    Returns
    -------
    bool
        True when a power ``**``, SymPy's infinity ``oo`` or ``E**`` remains.

    See Also
    --------
    prettify : removes this syntax.

    Notes
    -----
    The documentation tests use it on every page a reader sees: no SymPy code syntax may
    remain outside code blocks.

    Examples
    --------
    >>> has_code_syntax("x**2 + 1"), has_code_syntax("**Verdict.** ∞")
    (True, False)
    """
    no_bold = re.sub(r"\*\*[^*\s][^*]*\*\*", "", text)
    return bool(re.search(r"\w\*\*|\)\*\*|(?<![\w.])-?oo(?!\w)|(?<![\w.])E\*\*", no_bold))


#: TeX commands MathJax turns into links, classes, ids, styles or data attributes of the
#: page, or that load extensions or define macros (which could hide any of these).
_UNSAFE_TEX = frozenset({
    "href", "url", "class", "cssId", "style", "data", "attr", "unicode", "require", "bbox",
    "mmlToken", "html", "texhtml", "toggle", "mathtip", "texttip", "fontfamily", "def",
    "gdef", "edef", "xdef", "let", "futurelet", "newcommand", "renewcommand",
    "providecommand", "newenvironment", "renewenvironment", "DeclareMathOperator",
    "Newextarrow", "setOptions", "csname",
})
#: A control word, or ``&`` that would start an HTML character reference (``&#92;`` is a
#: backslash once a Markdown renderer puts the maths back into the page as HTML).
_ENTITY = r"&(?=#|[A-Za-z0-9]+;)"
_TEX_HAZARD = re.compile(rf"{_ENTITY}|\\(?:[A-Za-z]+|(?!{_ENTITY})[^A-Za-z])")


def safe_tex(latex: str) -> str:
    r"""TeX from a report or a result, safe to put in a page that MathJax typesets.

    Parameters
    ----------
    latex : str
        A formula (or text with ``$...$`` formulas) from an untrusted source: a report
        file, a check's result.

    Returns
    -------
    str
        The same TeX with each command that could make a live link, a class, an id, a
        style or a data attribute (the commands ``href``, ``url``, ``class``, ``cssId``,
        ``style``, ``data``, ``bbox``, ``unicode``, ``mmlToken``), load an extension
        (``require``) or define a macro (``def``, ``newcommand``, ``let`` …) written out as
        text (a typeset backslash and the command's name, see Examples), and each ``&`` that
        would start an HTML character reference as ``{\&}``. Everything else is unchanged.

    See Also
    --------
    moetheory.engine.display.html_text, moetheory.engine.display.markdown_text : the
        notebook displays, which pass every formula, prose and code through it.

    Notes
    -----
    One pass over the text (linear in its length). The pages' MathJax also loads its
    ``ui/safe`` filter (``docs/conf.py``); this function is the defence that does not
    depend on how a page's MathJax is configured (a notebook's, a Markdown viewer's).

    Examples
    --------
    >>> safe_tex(r"\href{javascript:alert(1)}{x} \le \frac{1}{2} \\ y")
    '\\backslash\\mathrm{href}{javascript:alert(1)}{x} \\le \\frac{1}{2} \\\\ y'
    >>> safe_tex(r"&#92;href{javascript:x}{y} \&#104;ref")
    '{\\&}#92;href{javascript:x}{y} \\{\\&}#104;ref'
    """

    def neutral(m: re.Match[str]) -> str:
        token = m.group()
        if token == "&":
            return r"{\&}"
        return r"\backslash\mathrm{" + token[1:] + "}" if token[1:] in _UNSAFE_TEX else token

    return _TEX_HAZARD.sub(neutral, latex)


def _group(s: str, i: int) -> tuple[str, int]:
    """The argument starting at ``s[i]``: a braced group or one token; and the next index."""
    while i < len(s) and s[i] == " ":
        i += 1
    if i >= len(s):
        return "", i
    if s[i] == "{":
        depth = 0
        for j in range(i, len(s)):
            depth += {"{": 1, "}": -1}.get(s[j], 0)
            if depth == 0:
                return s[i + 1 : j], j + 1
        return s[i + 1 :], len(s)
    if s[i] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", s[i:])
        assert m is not None
        return m.group(0), i + len(m.group(0))
    return s[i], i + 1


def _atomic(text: str) -> bool:
    """Whether ``text`` reads as one factor (no top-level space or operator)."""
    outer = text
    for _level in range(_MAX_TEX_DEPTH):  # brackets deeper than that: not one factor
        inner = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "g", outer)
        if inner == outer:
            break
        outer = inner
    else:
        return False
    return bool(outer) and re.fullmatch(r"[^\s+\-−/·=<>≤≥,]+", outer) is not None


def _bar_product(text: str) -> bool:
    """Whether ``text`` juxtaposes an absolute value or norm with another factor
    (``ε|x|``): one factor to TeX, but ``u/ε|x|`` reads as ``(u/ε)·|x|``."""
    bars = [c for c in text if c in "|‖"]
    if not bars:
        return False
    return not (len(bars) == 2 and text[0] == text[-1] and text[0] in "|‖")


def latex_to_unicode(latex: str) -> str:
    r"""Render a LaTeX formula as Unicode text for a terminal.

    Parameters
    ----------
    latex : str
        A formula in LaTeX (without the ``$`` delimiters), as SymPy's ``latex()`` or a
        check's ``*_latex`` field writes it.

    Returns
    -------
    str
        Readable text: Greek letters and operators as Unicode, ``^{2}`` and ``_{1}`` as
        super- and subscripts where Unicode has them (``^(…)``, ``_(…)`` otherwise),
        fractions with a slash, roots with the root sign, blackboard-bold letters as their
        Unicode letters; sizing commands (``left``, ``right``, ``big``) and spacing dropped
        (see Examples).

    See Also
    --------
    prettify : SymPy-printed plain text as Unicode.

    Notes
    -----
    Covers the subset of LaTeX that SymPy prints and the checks write; an unknown command
    keeps its name without the backslash, so no formula is lost.

    Examples
    --------
    >>> latex_to_unicode(r"\left\| x \right\|^{2} = \sum_{i=1}^{d} x_{i}^{2}")
    '‖ x ‖² = Σ_(i=1)^d xᵢ²'
    >>> latex_to_unicode(r"\mathbb{E}[F_t] \in \mathbb{R}")
    '𝔼[Fₜ] ∈ ℝ'
    >>> latex_to_unicode(r"\left[\begin{matrix}1 & 0\\0 & \frac{1}{2}\end{matrix}\right]")
    '[1, 0; 0, 1/2]'
    """
    if _brace_depth(latex) > _MAX_TEX_DEPTH:
        return " ".join(latex.split())  # nested too deep to be a formula: shown as written
    end = max((m.end() for m in _MATRIX_END.finditer(latex)), default=0)
    # no environment ends after the last end: the lazy search never runs to the text's end
    latex = _MATRIX.sub(_matrix_rows, latex[:end]) + latex[end:]
    text = " ".join(_convert(latex).split())
    text = _INNER_SPACE.sub("", text)  # TeX ignores the spaces SymPy puts inside brackets
    return _AT_POINT_SPACE.sub("", text)


#: A space just inside a bracket (SymPy writes ``\\left(c \\right)``).
_INNER_SPACE = re.compile(r"(?<=[(\[])\s+|\s+(?=[)\]])")
#: A space before the bar of an evaluation at a point (``… \\right|_{c=1}``).
_AT_POINT_SPACE = re.compile(r"\s+(?=\|_\([^()]*=)")
#: One variable of a differential in Unicode text: a letter with its subscripts.
_VARIABLE = r"[A-Za-zα-ωΑ-Ω](?:[₀-₉ₐ-ₜᵢⱼᵣᵤᵥ]+|_\w+|_\([^()]*\))?"
_POWER_TEXT = r"(?:[⁰¹²³⁴⁵⁶⁷⁸⁹]+|\^\w+|\^\([^()]*\))?"
#: The numerator and denominator of a derivative: ``d``, ``d²``, ``dy``, ``∂²``; ``d c``,
#: ``dx²``, ``∂x∂c`` (each differential written without spaces once recognised).
_DIFF_TOP = re.compile(rf"([d∂]{_POWER_TEXT})\s*({_VARIABLE})?")
_DIFF_BOTTOM = re.compile(rf"(?:[d∂]\s*{_VARIABLE}{_POWER_TEXT}\s*)+")


def _derivative(num: str, den: str) -> str | None:
    """``num/den`` as a derivative operator (``d/dc``, ``∂²/∂x∂c``, ``dy/dx``), or None when
    the fraction is not one."""
    if _DIFF_TOP.fullmatch(num) and _DIFF_BOTTOM.fullmatch(den):
        return "".join(num.split()) + "/" + "".join(den.split())
    return None


#: Braces nested deeper than this (open ones counted) make a text that is not a formula;
#: :func:`_convert` recurses once per level.
_MAX_TEX_DEPTH = 32


def _brace_depth(latex: str) -> int:
    """The deepest nesting of braces in ``latex``, braces left open counted."""
    depth = deepest = 0
    for c in latex:
        if c == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif c == "}":
            depth -= 1
    return deepest


#: A matrix environment: its rows are written ``a, b; c, d`` (the brackets are its delimiters').
_MATRIX = re.compile(r"\\begin\{[pbv]?matrix\}(.*?)\\end\{[pbv]?matrix\}", re.S)
_MATRIX_END = re.compile(r"\\end\{[pbv]?matrix\}")


def _matrix_rows(m: re.Match[str]) -> str:
    rows = [r for r in re.split(r"\\\\", m.group(1)) if r.strip()]
    return "; ".join(", ".join(c.strip() for c in row.split("&")) for row in rows)


_SUB_LETTERS = str.maketrans("aeijkmnoprstuvx", "ₐₑᵢⱼₖₘₙₒₚᵣₛₜᵤᵥₓ")


def _script(body: str, sup: bool) -> str:
    table = _SUPER if sup else _SUB
    ok = r"[0-9+\-=()n]+" if sup else r"[0-9+\-=()]+"
    body = body.strip()
    if re.fullmatch(ok, body):
        return body.translate(table)
    if not sup and re.fullmatch(r"[aeijkmnoprstuvx]", body):
        return body.translate(_SUB_LETTERS)
    if sup and body in ("T", "ᵀ", "\\top"):
        return "ᵀ"
    if sup and body in ("*", "⋆"):
        return "*"
    mark = "^" if sup else "_"
    return mark + body if _atomic(body) else f"{mark}({body})"


def _convert(s: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", s[i:])
            assert m is not None
            name = m.group(1)
            i += len(m.group(0))
            if name in ("left", "right") and s.startswith(".", i):
                i += 1  # the empty delimiter of \left. ... \right|_{c=1}
                continue
            if name == "substack":  # the lines of an evaluation point: c=1, x=2
                arg, i = _group(s, i)
                out.append(", ".join(_convert(line).strip() for line in arg.split("\\\\")))
                continue
            if name in ("left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr",
                        "Bigl", "Bigr", "displaystyle", "textstyle", "limits", "nolimits"):
                continue
            if name in ("frac", "dfrac", "tfrac"):
                num, i = _group(s, i)
                den, i = _group(s, i)
                a, b = _convert(num).strip(), _convert(den).strip()
                derivative = _derivative(a, b)
                if derivative is not None:
                    out.append(derivative)
                    continue
                a = a if _atomic(a) and not _bar_product(a) else f"({a})"
                b = b if _atomic(b) and not _bar_product(b) else f"({b})"
                out.append(f"{a}/{b}")
                continue
            if name == "sqrt":
                arg, i = _group(s, i)
                body = _convert(arg).strip()
                out.append("√" + (body if _atomic(body) else f"({body})"))
                continue
            if name in ("mathbb", "mathbf", "mathrm", "mathit", "mathcal", "text", "textrm",
                        "textbf", "textit", "operatorname", "mathsf", "boldsymbol", "bm"):
                arg, i = _group(s, i)
                if name == "mathbb" and arg.strip() in _BLACKBOARD:
                    out.append(_BLACKBOARD[arg.strip()])
                else:
                    out.append(_convert(arg))
                continue
            if name in ("hat", "widehat", "tilde", "widetilde", "bar", "overline", "dot"):
                arg, i = _group(s, i)
                mark = {"hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303",
                        "widetilde": "\u0303", "bar": "\u0304", "overline": "\u0304",
                        "dot": "\u0307"}[name]
                body = _convert(arg).strip()
                out.append(body + mark if len(body) == 1 else f"{name}({body})")
                continue
            out.append(_SYMBOLS.get(name, name))
            if name in _GREEK or name in ("partial", "nabla", "lVert", "langle", "lceil",
                                          "lfloor"):
                while i < len(s) and s[i] == " ":  # TeX drops the space after a letter
                    i += 1
            continue
        if c in "^_":
            arg, i = _group(s, i + 1)
            out.append(_script(_convert(arg), sup=c == "^"))
            continue
        if c in "{}":
            i += 1
            continue
        if c == "~":
            out.append(" ")
            i += 1
            continue
        if c == "&":
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


# -- SymPy-printed expressions in running text, typeset -------------------------------

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_(?:\{[^{}\s]*\}|[A-Za-z0-9]+))?")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_FUNCTIONS = ("sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "Abs")


def _factors(value: Any) -> list[Any]:
    import sympy as sp

    return list(value.args) if isinstance(value, sp.Mul) else [value]


def _add(terms: list[Any]) -> Any:
    import sympy as sp

    return sp.Add(*terms, evaluate=False)


def _neg(a: Any) -> Any:
    import sympy as sp

    if isinstance(a, sp.Number):
        return -a
    return sp.Mul(sp.S.NegativeOne, *_factors(a), evaluate=False)


def _quotient(num: list[Any], den: list[Any]) -> Any:
    """``a*b/c/d`` as written: integer ratios exact, everything else unevaluated."""
    import sympy as sp

    if len(num) == 1 and len(den) == 1 and all(isinstance(x, sp.Integer) for x in (*num, *den)):
        if den[0] != 0:
            return sp.Rational(num[0], den[0])
    factors = [f for x in num for f in _factors(x)]
    if den:
        d = den[0] if len(den) == 1 else sp.Mul(*den, evaluate=False)
        factors.append(sp.Pow(d, sp.S.NegativeOne, evaluate=False))
    if len(factors) > 1 and factors[0] == 1:
        factors = factors[1:]
    return factors[0] if len(factors) == 1 else sp.Mul(*factors, evaluate=False)


class _Fail(Exception):
    """The text at this position is not a SymPy-printed expression."""


class _Spent(Exception):
    """The text has used up its parsing budget."""


#: Atoms the parser may read in one text (every start of an expression tried included); a
#: report's longest reading (17 kB) needs about 3,000. Past it the rest of the text is only
#: prettified, so a hostile text (thousands of ``(``, a long sum ending in a broken call,
#: each start of an expression re-read to the end) costs bounded time.
_PARSE_BUDGET = 10_000
#: Brackets and unary minuses an expression may nest (SymPy prints a handful).
_MAX_NESTING = 64


class _ExprParser:
    """Recursive descent over SymPy's ``str`` printing conventions.

    ``a + b`` and ``a - b`` carry a space on both sides; ``*``, ``/`` and ``**`` none; a
    unary minus none. These conventions tell an expression from the prose around it: in
    ``gap -(x)**2`` the ``-`` is unary, so ``gap`` is a word, not a term.
    """

    def __init__(self, text: str, budget: list[int] | None = None) -> None:
        self.s = text
        self.code = False  # seen SymPy code syntax (``*``, ``**``, ``oo``, sqrt(...))
        self.budget = budget if budget is not None else [_PARSE_BUDGET]  # shared, mutable
        self.depth = 0  # brackets and unary minuses open

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > _MAX_NESTING:
            raise _Fail  # nested deeper than any printed expression

    def expr(self, i: int) -> tuple[Any, int]:
        first, i = self.term(i)
        terms = [first]
        while self.s.startswith((" + ", " - "), i):
            op = self.s[i + 1]
            rhs, i = self.term(i + 3)
            terms.append(rhs if op == "+" else _neg(rhs))
        return (_add(terms) if len(terms) > 1 else first), i

    def term(self, i: int) -> tuple[Any, int]:
        first, i = self.unary(i)
        num: list[Any] = [first]
        den: list[Any] = []
        while i < len(self.s) and self.s[i] in "*/" and not self.s.startswith("**", i):
            op = self.s[i]
            rhs, i = self.unary(i + 1)
            self.code = self.code or op == "*"
            (num if op == "*" else den).append(rhs)
        if len(num) == 1 and not den:
            return first, i
        return _quotient(num, den), i

    def unary(self, i: int) -> tuple[Any, int]:
        if self.s.startswith("-", i):
            self._enter()
            value, i = self.unary(i + 1)
            self.depth -= 1
            return _neg(value), i
        return self.power(i)

    def power(self, i: int) -> tuple[Any, int]:
        import sympy as sp

        base, i = self.atom(i)
        if self.s.startswith("**", i):
            self.code = True
            exponent, i = self.unary(i + 2)
            return sp.Pow(base, exponent, evaluate=False), i
        return base, i

    def atom(self, i: int) -> tuple[Any, int]:
        import sympy as sp

        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise _Spent
        if self.s.startswith("(", i):
            self._enter()
            value, i = self.expr(i + 1)
            if not self.s.startswith(")", i):
                raise _Fail
            self.depth -= 1
            return value, i + 1
        m = _NUMBER.match(self.s, i)
        if m:
            text = m.group(0)
            value = sp.Integer(text) if "." not in text else sp.Symbol(text)
            return value, m.end()
        m = _NAME.match(self.s, i)
        if not m:
            raise _Fail
        name, i = m.group(0), m.end()
        if self.s.startswith("(", i):
            args = []
            arg, i = self.expr(i + 1)
            args.append(arg)
            while self.s.startswith(", ", i):
                arg, i = self.expr(i + 2)
                args.append(arg)
            if not self.s.startswith(")", i):
                raise _Fail
            if name in _FUNCTIONS:
                self.code = True
                return getattr(sp, name)(*args, evaluate=False), i + 1
            return sp.Function(name)(*args), i + 1
        if name == "oo":
            self.code = True
            return sp.oo, i
        if name == "pi":
            return sp.pi, i
        if name == "E":  # SymPy prints Euler's number as E
            return sp.E, i
        return sp.Symbol(name), i


@lru_cache(maxsize=4096)
def _symbol_latex(name: str) -> str:
    import sympy as sp

    if name.endswith("star") and len(name) > 4:
        return _symbol_latex(name[:-4]) + "^{*}"
    if re.fullmatch(r"\d+\.\d+", name):
        return name
    latex = str(sp.latex(sp.Symbol(name)))
    if latex == name and len(name) > 1 and name.isalpha():
        return rf"\mathrm{{{name}}}"
    return latex


def _typeset(value: Any) -> str:
    import sympy as sp

    names = {s: _symbol_latex(s.name) for s in value.free_symbols if isinstance(s, sp.Symbol)}
    return str(sp.latex(value, symbol_names=names))


def _expression_at(text: str, i: int, budget: list[int]) -> tuple[str, int] | None:
    """The LaTeX of a SymPy-printed expression starting at ``text[i]`` and its end.

    Raises
    ------
    _Spent
        When the text's parsing ``budget`` (shared by all its starts) is used up.
    """
    parser = _ExprParser(text, budget)
    try:
        value, j = parser.expr(i)
    except (_Fail, RecursionError):
        return None
    except Exception:  # SymPy refused the expression (e.g. a bad call): leave it as text
        return None
    if j < len(text) and (text[j].isalnum() or text[j] in "_([{"):
        return None  # the expression would end inside a word
    if not parser.code:
        return None
    try:
        return _typeset(value), j
    except Exception:  # pragma: no cover - latex() of a parsed expression does not fail
        return None


def sympy_text_to_latex(text: str) -> str:
    """The typeset form of a text holding SymPy-printed expressions.

    Each expression SymPy printed into the text (``tau1*u/(n_b + tau1)**2``, ``oo``,
    ``sqrt(eta)``) becomes ``$...$`` with its LaTeX from :func:`sympy.printing.latex.latex`;
    the prose around it is prettified (:func:`prettify`). Spans already inside ``$...$``
    are kept.

    Parameters
    ----------
    text : str
        Plain text, e.g. a check's summary or reading.

    Returns
    -------
    str
        The text with every SymPy expression typeset; ``""`` when the text holds none
        (nothing to typeset beyond what :func:`prettify` does).

    See Also
    --------
    prettify : the same text as Unicode, for terminals.
    has_code_syntax : whether a text still shows SymPy syntax.

    Notes
    -----
    An expression is recognised by SymPy's ``str`` printing conventions: binary ``+`` and
    ``-`` between spaces, ``*``, ``/`` and ``**`` without, names such as ``tau1``,
    ``n_b`` or ``o_{1,1}``, calls such as ``sqrt(x)``. It is typeset only when it shows
    code syntax (``*``, ``**``, ``oo`` or a call of an elementary function), so words and
    plain numbers stay prose. Names print as SymPy prints symbols (``tau1`` as
    :math:`\\tau_{1}`, ``etahat`` as :math:`\\hat{\\eta}`), ``etastar`` as
    :math:`\\eta^{*}` and other words in roman type. The expression is evaluated by SymPy
    (exact arithmetic), so the order of terms may be SymPy's canonical one.

    Examples
    --------
    >>> sympy_text_to_latex("gap etahat**2*x**2 -> oo")
    'gap $\\\\hat{\\\\eta}^{2} x^{2}$ → $\\\\infty$'
    >>> sympy_text_to_latex("2*d*h < d**2 for all 1 <= h < d")
    '$2 d h$ < $d^{2}$ for all 1 ≤ h < d'
    >>> sympy_text_to_latex("no code here, tau2-only")
    ''
    """
    parts = re.split(r"(\$[^$]+\$|`[^`]*`)", text)
    out: list[str] = []
    changed = False
    budget = [_PARSE_BUDGET]
    for k, part in enumerate(parts):
        if k % 2:
            out.append(part)
            continue
        i, prose_start = 0, 0
        pieces: list[str] = []
        while i < len(part) and budget[0] > 0:
            c = part[i]
            starts = (c.isalnum() or c in "(-") and (i == 0 or not (
                part[i - 1].isalnum() or part[i - 1] in "_.*/"
            ))
            try:
                found = _expression_at(part, i, budget) if starts else None
            except _Spent:
                break  # the rest of the text is only prettified
            if found is None:
                i += 1
                continue
            latex, j = found
            pieces += [prettify(part[prose_start:i]), f"${latex}$"]
            changed = True
            i = prose_start = j
        pieces.append(prettify(part[prose_start:]))
        out.append("".join(pieces))
    return "".join(out) if changed else ""
