r"""Mathematics in a check's plain text, found and typeset for the pages and the terminal.

The checks write their summaries, readings, evidence and derivation tables as plain text
with the mathematics spelled in ASCII or Unicode (``eta_i = -eta_j for some i != j``,
``(72)*h(x,eta1) + (-81)*D[a,a]h(x,eta2)``, ``‖θ^{(m)}_{T1}‖∞ ≤ λ``). A reader of the book
should see every such formula typeset. :func:`prose_myst` finds the formulas in running text
and writes each as ``$…$`` LaTeX, leaving the words as words (:func:`prose_unicode` writes
each in Unicode, for ``moetheory show``):

* a formula is a run of mathematical atoms -- identifiers that read as symbols (``x``,
  ``eta_i``, ``tau2``, ``σ0``, ``L_loc``), numbers, Greek letters, calls ``h(x, eta1)`` --
  joined by operators (``=``, ``!=``, ``<=``, ``**``, ``^``, ``*``, ``/``, ``+``, ``-``,
  ``≤``, ``·`` …) or by juxtaposition, with brackets whose content is itself mathematics;
* a run is typeset only when it shows mathematics (an operator, a subscript, a Greek
  letter, a script): ``d = 1`` and ``σ0`` are, ``Lemma 7`` and ``0.05`` stay prose;
* an English word ends a run, so does a comma or colon outside brackets, and a hyphen
  between words (``pcos-2``, ``sign-flipped``) is a hyphen, not a minus.

The prose around the formulas is escaped for MyST (and HTML), so no text of a report is
ever read as markup. The LaTeX is built token by token from a fixed table, so it is always
well formed (balanced braces, known commands only).

Examples
--------
>>> prose_myst("a_j = 0 for some j, or eta_i = -eta_j for some i != j")
'$a_{j} = 0$ for some j, or $\\eta_{i} = -\\eta_{j}$ for some $i \\ne j$'
>>> prose_myst("dependent: (72)*h(x,eta1) + (-81)*D[a,a]h(x,eta2) = 0 a.e.")
'dependent: $(72) h(x, \\eta_{1}) + (-81) \\partial_{a a} h(x, \\eta_{2}) = 0$ a.e.'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from moetheory.engine.mathtext import safe_tex

__all__: list[str] = []

# -- tables ------------------------------------------------------------------------------

_GREEK_NAMES = {
    "alpha": r"\alpha", "beta": r"\beta", "gamma": r"\gamma", "delta": r"\delta",
    "epsilon": r"\epsilon", "varepsilon": r"\varepsilon", "zeta": r"\zeta", "eta": r"\eta",
    "theta": r"\theta", "kappa": r"\kappa", "lambda": r"\lambda", "lam": r"\lambda",
    "mu": r"\mu", "nu": r"\nu", "xi": r"\xi", "pi": r"\pi", "rho": r"\rho",
    "sigma": r"\sigma", "tau": r"\tau", "phi": r"\phi", "varphi": r"\varphi", "chi": r"\chi",
    "psi": r"\psi", "omega": r"\omega", "Gamma": r"\Gamma", "Delta": r"\Delta",
    "Theta": r"\Theta", "Lambda": r"\Lambda", "Sigma": r"\Sigma", "Phi": r"\Phi",
    "Psi": r"\Psi", "Omega": r"\Omega", "Pi": r"\Pi", "Xi": r"\Xi",
}
_GREEK_LETTERS = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon",
    "ϵ": r"\epsilon", "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ϑ": r"\vartheta",
    "ι": r"\iota", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu", "ξ": r"\xi",
    "π": r"\pi", "ρ": r"\rho", "ϱ": r"\varrho", "σ": r"\sigma", "ς": r"\varsigma",
    "τ": r"\tau", "υ": r"\upsilon", "φ": r"\varphi", "ϕ": r"\phi", "χ": r"\chi",
    "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta",
    "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\prod", "Σ": r"\sum", "Φ": r"\Phi", "Ψ": r"\Psi",
    "Ω": r"\Omega", "ο": "o", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I",
    "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": r"\Upsilon", "Χ": "X",
}
#: Names that are functions: typeset upright when called (``log(x)``) or subscripted.
_FUNCTIONS = {
    "log": r"\log", "ln": r"\ln", "exp": r"\exp", "sin": r"\sin", "cos": r"\cos",
    "tan": r"\tan", "tanh": r"\tanh", "sinh": r"\sinh", "cosh": r"\cosh", "max": r"\max",
    "min": r"\min", "sup": r"\sup", "inf": r"\inf", "det": r"\det", "lim": r"\lim",
    "arg": r"\arg", "sqrt": r"\sqrt", "sum": r"\sum", "prod": r"\prod",
    "Max": r"\max", "Min": r"\min", "Abs": "", "argmax": r"\operatorname{argmax}",
    "argmin": r"\operatorname{argmin}", "softmax": r"\operatorname{softmax}",
    "sigmoid": r"\operatorname{sigmoid}", "sgn": r"\operatorname{sgn}",
    "sign": r"\operatorname{sign}", "tr": r"\operatorname{tr}", "erf": r"\operatorname{erf}",
    "Var": r"\operatorname{Var}", "Cov": r"\operatorname{Cov}", "Lip": r"\operatorname{Lip}",
    "KL": r"\operatorname{KL}", "TV": r"\operatorname{TV}", "diag": r"\operatorname{diag}",
    "rank": r"\operatorname{rank}", "span": r"\operatorname{span}",
    "relu": r"\operatorname{relu}", "ReLU": r"\operatorname{ReLU}",
    "GELU": r"\operatorname{GELU}", "gelu": r"\operatorname{gelu}",
}
_BINARY = {
    "**": "^", "^": "^", "*": "*", "/": "/", "+": "+", "-": "-", "−": "-", "·": r"\cdot",
    "×": r"\times", "±": r"\pm", "∓": r"\mp", "=": "=", "!=": r"\ne", "≠": r"\ne",
    "<=": r"\le", "≤": r"\le", ">=": r"\ge", "≥": r"\ge", "<": "<", ">": ">",
    "≈": r"\approx", "->": r"\to", "→": r"\to", "←": r"\leftarrow", "=>": r"\Rightarrow",
    "⇒": r"\Rightarrow", "⇔": r"\Leftrightarrow", "∈": r"\in", "∉": r"\notin",
    "⊂": r"\subset", "⊆": r"\subseteq", "∪": r"\cup", "∩": r"\cap", "∼": r"\sim",
    "~": r"\sim", "≡": r"\equiv", "≪": r"\ll", "≫": r"\gg", "∝": r"\propto", "∘": r"\circ",
    "∖": r"\setminus", "..": r"\ldots", "...": r"\ldots", "…": r"\ldots", "⋯": r"\cdots",
    "↦": r"\mapsto",
    "⊗": r"\otimes", "⊙": r"\odot", "∧": r"\wedge", "∨": r"\vee",
}
#: Operators that may open a formula after prose ("… > 1/2", "≤ 0.05").
_RELATIONS = frozenset({"=", "!=", "≠", "<=", "≤", ">=", "≥", "<", ">", "≈", "->", "→",
                        "=>", "⇒", "∈", "∉", "⊂", "⊆", "∼", "≡", "≪", "≫", "∝"})
_SYMBOLS = {
    "∞": r"\infty", "∂": r"\partial", "∇": r"\nabla", "∀": r"\forall", "∃": r"\exists",
    "∅": r"\emptyset", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}",
    "ℚ": r"\mathbb{Q}", "ℂ": r"\mathbb{C}", "𝔼": r"\mathbb{E}", "ℙ": r"\mathbb{P}",
    "ℓ": r"\ell", "½": r"\tfrac{1}{2}", "¼": r"\tfrac{1}{4}", "¾": r"\tfrac{3}{4}",
    "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "√": r"\sqrt", "¬": r"\neg", "ℏ": r"\hbar",
    "⋆": "^{*}", "†": r"^{\dagger}", "…": r"\ldots", "⋯": r"\cdots",
}
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ", "0123456789+-=()ni", strict=False))
_SUPERSCRIPTS["ᵀ"] = r"\top"
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₘₙₒₚᵣₛₜᵤᵥₓ", "0123456789+-=()aeijkmnoprstuvx",
                       strict=True))
_OPEN = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⌈": "⌉", "⌊": "⌋"}
_OPEN_LATEX = {"(": "(", "[": "[", "{": r"\{", "⟨": r"\langle ", "⌈": r"\lceil ",
               "⌊": r"\lfloor ", "|": "|", "‖": r"\|", "||": r"\|", "∣": "|"}
_CLOSE_LATEX = {")": ")", "]": "]", "}": r"\}", "⟩": r"\rangle", "⌉": r"\rceil",
                "⌋": r"\rfloor", "|": "|", "‖": r"\|", "||": r"\|", "∣": "|"}
_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0307": r"\dot",
            "\u0308": r"\ddot", "\u20d7": r"\vec", "\u0305": r"\bar"}

_LETTER = r"A-Za-zÀ-ÖØ-öø-ſ"
_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
   |(?P<num>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
   |(?P<ident>[{_LETTER}][{_LETTER}0-9\u0300-\u036f]*
        (?:_(?:\{{(?:[^{{}}]|\{{[^{{}}]*\}})*\}}|\((?:[^()\s]|\([^()]*\))*\)
              |[A-Za-z0-9]+|[α-ωΑ-Ω]\d{{0,2}}))*)
   |(?P<greek>[α-ωΑ-Ωϵϑϕϱς][\u0300-\u036f]*)
   |(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ]+)
   |(?P<sub>[₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₘₙₒₚᵣₛₜᵤᵥₓ]+)
   |(?P<subscript>_(?:\{{(?:[^{{}}]|\{{[^{{}}]*\}})*\}}|\((?:[^()\s]|\([^()]*\))*\)
                     |[A-Za-z0-9]+|[α-ωΑ-Ω]\d{{0,2}}))
   |(?P<bar>\|\||[|‖∣])
   |(?P<op>\*\*|!=|<=|>=|->|=>|\.\.\.|\.\.|[=<>+\-−*/^·×±∓≤≥≠≈→←⇒⇔∈∉⊂⊆∪∩∼~≡≪≫∝∘∖↦⊗⊙∧∨])
   |(?P<open>[(\[{{⟨⌈⌊])
   |(?P<close>[)\]}}⟩⌉⌋])
   |(?P<prime>['’′]+)
   |(?P<sym>[∞∂∇∀∃∅ℝℕℤℚℂ𝔼ℙℓ½¼¾∑∏∫√¬ℏ⋆†…⋯])
   |(?P<other>.)
    """,
    re.X | re.S,
)


# -- elements ----------------------------------------------------------------------------


@dataclass
class _El:
    """A token or a bracket group of the text, with what it is as mathematics."""

    kind: str  # ws num ident greek sup sub subscript op prime sym other group
    text: str
    space_before: bool = False
    children: list[_El] = field(default_factory=list)
    close: str = ""
    maths: bool = False  # for a group: its content is mathematics
    atom: bool = False  # for a word: written against an operator, so a symbol
    product: bool = False  # for a short word among symbols: a product of letters (‖Pu‖)

    @property
    def source(self) -> str:
        if self.kind != "group":
            return self.text
        return self.text + "".join(c.source for c in self.children) + self.close


def _tokens(text: str) -> list[_El]:
    out: list[_El] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind == "ident" and m.group() == "oo":
            kind, text_ = "sym", "∞"  # SymPy's infinity
            out.append(_El(kind, text_))
            continue
        out.append(_El(kind, m.group()))
    # a hyphenated name with an underscore is one program name: norm-as-sigma_t
    merged: list[_El] = []
    k = 0
    while k < len(out):
        j = k
        while j + 2 < len(out) and out[j].kind in ("ident", "num") and out[j + 1].text == "-" \
                and out[j + 2].kind in ("ident", "num"):
            j += 2
        if j > k and any("_" in t.text for t in out[k:j + 1] if t.kind == "ident"):
            merged.append(_El("ident", "".join(t.text for t in out[k:j + 1])))
            k = j + 1
            continue
        merged.append(out[k])
        k += 1
    return _dotted_names(merged)


def _dotted_names(tokens: list[_El]) -> list[_El]:
    """Names joined by dots without spaces, two or more of them words, are one name (a claim
    ID ``j91.vowel.epochs``, a module ``moetheory.engine``), not a symbol and some words."""
    out: list[_El] = []
    k = 0
    while k < len(tokens):
        j = k
        while tokens[k].kind == "ident" and j + 2 < len(tokens) and tokens[j + 1].text == "." \
                and tokens[j + 2].kind in ("ident", "num"):
            j += 2
        names = tokens[k:j + 1:2]
        if sum(t.kind == "ident" for t in names) >= 2 and not any("_" in t.text for t in names):
            out.append(_El("ident", ".".join(t.text for t in names)))
            k = j + 1
            continue
        out.append(tokens[k])
        k += 1
    return out


@lru_cache(maxsize=4096)
def _ident_role(name: str) -> str:
    """``atom`` (a symbol), ``strong`` (a symbol that alone shows mathematics),
    ``func`` (a function name), ``code`` (a program's identifier, ``max_iter``) or
    ``word``."""
    if "_" in name:
        base, *subs = _split_subscripts(name)
        letters = base.rstrip("0123456789")
        if letters in _GREEK_NAMES or len(letters) == 1:
            return "strong"  # eta_i, W1_1, L_loc
        if letters in _FUNCTIONS and all(len(x) <= 2 or x.startswith("{") for x in subs):
            return "strong"  # max_m, sup_x, softmax_i
        if len(letters) <= 2 and not any(re.fullmatch(r"[A-Za-z]{3,}\d*", x) for x in subs):
            return "strong"  # da_1 in dh/da_1
        return "code"  # voronoi_l1, max_iter, at_most, lm_tol
    bare = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    if bare != name and len(bare) == 1:
        return "strong"  # x̂, H̃, ū
    letters = name.rstrip("0123456789")
    digits = name[len(letters):]
    core = letters[:-3] if letters.endswith(("hat", "bar")) else letters
    core = core[:-4] if core.endswith("star") else core
    if core in _GREEK_NAMES:  # etahat, etastar (not "what", "that")
        return "strong"
    if letters == "L" and len(digits) >= 2:
        return "word"  # a line of a seed: (L195), 002 L56
    if len(letters) == 1 and letters.isascii():
        return "strong" if 0 < len(digits) <= 2 else ("atom" if not digits else "word")
    if name in _FUNCTIONS:
        return "func"
    return "word"


#: Brackets nested deeper than this are text, not groups: the passes over groups recurse.
_MAX_DEPTH = 24


def _opens(tokens: Sequence[_El], i: int) -> bool:
    """Whether ``tokens[i]`` may open a group: a bracket, or a bar written against what
    follows it (``|x|``, not ``a | b``)."""
    tok = tokens[i]
    return tok.kind == "open" or (tok.kind == "bar" and i + 1 < len(tokens)
                                  and tokens[i + 1].kind != "ws")


def _matches(tokens: Sequence[_El]) -> list[int]:
    """For each token that may open a group, the index of the token that closes it (``-1``
    when none does; ``-1`` for every other token too).

    A group of an opener ends at the first closer of its kind after it, other groups
    skipped whole; an opener that nothing closes is text and hides nothing. One pass from
    the end for each kind of closer in the text: linear in the number of tokens, however
    many brackets are left open.
    """
    n = len(tokens)
    match = [-1] * n
    openers = [i for i in range(n) if _opens(tokens, i)]
    if not openers:
        return match
    closers = {_OPEN.get(tokens[i].text, tokens[i].text) for i in openers}
    # ahead[c][p]: where a search from tokens[p] for the closer c ends (n: nowhere)
    ahead = {c: [n] * (n + 1) for c in closers}
    for p in range(n - 1, -1, -1):
        tok = tokens[p]
        if _opens(tokens, p):
            found = ahead[_OPEN.get(tok.text, tok.text)][p + 1]
            match[p] = found if found < n else -1
        for c, row in ahead.items():
            if tok.text == c and tok.kind in ("close", "bar"):
                row[p] = p
            elif match[p] >= 0:
                row[p] = row[match[p] + 1]
            else:
                row[p] = row[p + 1]
    return match


def _elements(tokens: list[_El]) -> list[_El]:
    """The tokens of a text as elements: bracket groups nested (:func:`_group`)."""
    out, _ = _group(tokens, 0, len(tokens), _matches(tokens), 0)
    return out


def _group(tokens: list[_El], i: int, end: int, match: Sequence[int],
           depth: int) -> tuple[list[_El], int]:
    """Elements of ``tokens[i:end]``, groups nested up to :data:`_MAX_DEPTH`."""
    out: list[_El] = []
    space = False
    while i < end:
        tok = tokens[i]
        if tok.kind == "ws":
            space = True
            out.append(tok)
            i += 1
            continue
        j = match[i]
        if j >= 0 and depth < _MAX_DEPTH:
            inner, _ = _group(tokens, i + 1, j, match, depth + 1)
            if tok.kind == "bar":
                _mark_products(inner)
            _mark_word_atoms(inner)
            el = _El("group", tok.text, space, inner, _OPEN.get(tok.text, tok.text))
            attached = not space and bool(out) and out[-1].kind in (
                "ident", "greek", "group", "sub", "subscript", "sup")
            el.maths = _is_maths(inner, attached)
            out.append(el)
            i, space = j + 1, False
            continue
        out.append(_El("other" if tok.kind in ("open", "close", "bar") else tok.kind,
                       tok.text, space))
        i += 1
        space = False
    return out, i


def _is_maths(elements: Sequence[_El], attached: bool = False) -> bool:
    """Whether a bracket's content is all mathematics (no word, no stray punctuation); one
    name is, in brackets written against a symbol (``E[lhs]``, ``G(MoE)``)."""
    solid = [e for e in elements if e.kind != "ws"]
    if not solid:
        return False
    if attached and len(elements) == 1 and elements[0].kind == "ident":
        return True
    for _k, e in enumerate(elements):
        if e.kind == "group" and not e.maths:
            return False
        if e.kind == "other" and e.text not in ",;:":
            return False
        if e.kind == "ident" and _role(e) in ("word", "code"):
            return False
    return True


# -- runs --------------------------------------------------------------------------------

#: Operators that make a word written against them a symbol (``top=1``, ``dh/da``).
_WORD_BINDING = frozenset({"=", "<", ">", "<=", ">=", "!=", "^", "**", "/"})


def _mark_word_atoms(elements: Sequence[_El]) -> None:
    """Words written tightly against ``=``, ``^``, ``/`` … are symbols (``E[lhs]=1.3``)."""
    for k, e in enumerate(elements):
        if e.kind == "group":
            _mark_word_atoms(e.children)
        before = elements[k - 1] if k else None
        after = elements[k + 1] if k + 1 < len(elements) else None
        if e.kind == "op" and e.text == "*" and before is not None and before.kind in (
            "ident", "greek", "group", "sub", "subscript"
        ) and not (after is not None and after.kind in ("ident", "num", "greek", "group",
                                                        "sym")):
            e.kind = "star"  # eta* = 2, k*
        if e.kind == "prime" and not (before is not None and before.kind in (
                "ident", "greek", "sub", "subscript")):
            e.kind = "other"  # a quote, not a prime
        if e.kind == "op" and e.text in ("^", "~") and before is not None and before.kind == \
                "ident" and len(before.text) == 1 and (after is None or after.kind in ("ws",
                                                                                    "other")):
            e.kind = "hat" if e.text == "^" else "tilde"  # p^, H~: the estimate, the variant
        if e.kind != "ident" or _ident_role(e.text) != "word":
            continue
        if len(e.text) <= 3 and e.text.isascii() and e.text.isalpha() and any(
            nb is not None and nb.kind in ("greek", "sup", "sub", "subscript")
            for nb in (before, after)
        ):
            e.atom = e.product = True  # sdσ0: s·d·σ0
            continue
        for nb in (elements[k - 1] if k else None, elements[k + 1] if k + 1 < len(elements)
                   else None):
            if nb is None or nb.kind != "op" or nb.text not in _WORD_BINDING:
                continue
            if nb.text == "/" and len(e.text) > 3 and not any(c.isdigit() for c in e.text):
                continue
            far = k - 2 if nb is before else k + 2  # across the slash
            if nb.text == "/" and 0 <= far < len(elements) and elements[far].kind == "ident" \
                    and _ident_role(elements[far].text) == "word":
                continue  # word/word: and/or, the seed lines L109/L111
            e.atom = True


def _mark_products(elements: Sequence[_El]) -> None:
    """Inside norm or absolute-value bars, short words are products of symbols (‖Pu‖)."""
    if any(e.kind == "ident" and _ident_role(e.text) == "word" and len(e.text) > 3
           for e in elements):
        return
    for e in elements:
        if e.kind == "ident" and _ident_role(e.text) == "word" and e.text.isascii() \
                and e.text.isalpha():
            e.atom = e.product = True


def _role(e: _El) -> str:
    return "atom" if e.atom else _ident_role(e.text)


def _operand(e: _El | None) -> bool:
    if e is None:
        return False
    if e.kind == "ident":
        return _role(e) not in ("word", "code")
    if e.kind == "group":
        return e.maths
    return e.kind in ("num", "greek", "sym")


def _strong(e: _El) -> bool:
    if e.kind == "ident":
        return _role(e) == "strong"
    if e.kind == "group":
        return e.maths and (e.text in ("|", "‖", "||") or _signal(e.children))
    if e.kind == "sym":
        return e.text != "…"  # an ellipsis is prose unless among symbols
    return e.kind in ("greek", "sup", "sub", "subscript", "star", "hat", "tilde")


def _signal(elements: Sequence[_El]) -> bool:
    """Whether a run shows mathematics (an operator, a script, a symbol, a call)."""
    for k, e in enumerate(elements):
        if _strong(e):
            return True
        if e.kind == "op" and e.text not in ("..", "...", "…", "⋯"):
            return True
        if e.kind == "group" and e.maths and k > 0 and _operand(elements[k - 1]) and \
                elements[k - 1].kind != "num":
            return True  # a call h(x) or an index E[F]
    return False


def _next_solid(elements: Sequence[_El], k: int) -> tuple[int, _El | None]:
    while k < len(elements) and elements[k].kind == "ws":
        k += 1
    return k, elements[k] if k < len(elements) else None


def _is_word(e: _El | None) -> bool:
    return e is not None and e.kind == "ident" and _role(e) in ("word", "code")


def _minus(e: _El | None) -> bool:
    return e is not None and e.kind == "op" and e.text in ("-", "−")


def _unit(elements: Sequence[_El], k: int) -> bool:
    """Whether the minus ``elements[k]`` joins a number and a one-letter unit before a word,
    a compound adjective (``a 900-s limit``, ``a 2-D input``), not a difference."""
    if k == 0 or k + 2 >= len(elements):
        return False
    before, unit = elements[k - 1], elements[k + 1]
    _j, then = _next_solid(elements, k + 2)
    return (before.kind == "num" and unit.kind == "ident" and len(unit.text) == 1
            and elements[k + 2].kind == "ws" and _is_word(then))


def _run_end(elements: Sequence[_El], start: int, inside: bool) -> tuple[int, int]:
    """The end (exclusive) of the formula starting at ``elements[start]``, and where the
    search for it stopped.

    A search from a later element before the stop follows the same path to the same stop,
    so it finds at most a part of this formula: :func:`_runs` need not search again there
    when this one is rejected (which keeps it linear on a long run that shows no
    mathematics, ``1..2..3..``)."""
    n = len(elements)
    k = start
    last = start  # after the last element a formula may end with
    while k < n:
        e = elements[k]
        if e.kind == "ws":
            j, nxt = _next_solid(elements, k)
            if nxt is None or k == start:
                break
            before = elements[k - 1]
            if (before.kind == "op" and before.text != "*") or (before.kind == "op" and \
                    elements[k - 2].kind == "ws"):
                if _operand(nxt) or _minus(nxt) or nxt.kind == "sym":
                    k = j
                    continue
                break
            if nxt.kind == "op" and nxt.text != "*":
                _j2, after = _next_solid(elements, j + 1)
                if _operand(after) or (after is not None and after.kind == "sym") or (
                    _minus(after) and not _minus(nxt)
                ):
                    if not (_minus(nxt) and j + 1 < n and elements[j + 1].kind != "ws"):
                        k = j
                        continue
                break
            prev_ok = _operand(before) or before.kind in ("sup", "sub", "subscript", "prime",
                                                          "star", "hat", "tilde")
            if before.kind == "num" and (nxt.kind == "group" or "." in before.text):
                break  # "= 1 (d = 2)", "under 1.3 ∂E/∂z": a remark, a reference
            if prev_ok and _operand(nxt) and (nxt.kind != "num" or _role_is(before, "func")) and (
                _strong(before) or _strong(nxt) or before.kind in ("sup", "sub", "subscript")
                or _role_is(before, "func") or _role_is(nxt, "func")
            ):
                k = j
                continue
            break
        if e.kind == "op":
            after = elements[k + 1] if k + 1 < n else None
            if _minus(e) and k > start:
                before = elements[k - 1]
                tight = before.kind != "ws" and after is not None and after.kind != "ws"
                if tight and (_is_word(before) or _is_word(after) or _unit(elements, k)):
                    break  # a hyphen: pcos-2, sign-flipped, a 900-s limit, a 2-D input
            j, nxt = _next_solid(elements, k + 1)
            if not (_operand(nxt) or _minus(nxt) or (nxt is not None and nxt.kind == "sym")):
                break
            k += 1
            continue
        if e.kind == "other":
            if inside and e.text in ",;":
                k += 1
                continue
            break
        if e.kind in ("sup", "sub", "subscript", "prime", "star", "hat", "tilde"):
            k += 1
            last = k
            continue
        if not _operand(e):
            break
        k += 1
        last = k
    while last > start and elements[last - 1].kind in ("op", "ws"):
        last -= 1
    return last, k


def _role_is(e: _El, role: str) -> bool:
    return e.kind == "ident" and _role(e) == role


def _starts(elements: Sequence[_El], k: int) -> bool:
    e = elements[k]
    prev = elements[k - 1] if k > 0 else None
    nxt = elements[k + 1] if k + 1 < len(elements) else None
    if prev is not None and prev.kind in ("ident", "num", "greek") and e.kind in (
        "ident", "num", "greek"
    ):
        return False  # inside a word or number: 2D, L779
    if _minus(prev) and k >= 2 and _is_word(elements[k - 2]) and e.kind in ("ident", "num"):
        return False  # after a hyphen: pcos-2
    if e.kind == "op":
        _j, after = _next_solid(elements, k + 1)
        if e.text in _RELATIONS:
            return _operand(after) or _minus(after)
        if _minus(e):
            return nxt is not None and _operand(nxt) and (
                prev is None or prev.kind == "ws" or prev.text in "([{,")
        return False
    if e.kind == "ident":
        role = _role(e)
        if role in ("word", "code"):
            return False
        if role == "func":
            return nxt is not None and (nxt.kind == "subscript" or (nxt.kind == "group"
                                        and nxt.maths))
        return True
    if e.kind == "group":
        return e.maths
    return e.kind in ("num", "greek", "sym")


def _runs(elements: Sequence[_El], inside: bool = False) -> Iterator[tuple[bool, list[_El]]]:
    """The elements in order, as (is formula, elements) pieces; formulas never adjacent."""
    k = 0
    prose: list[_El] = []
    formula: list[_El] = []
    while k < len(elements):
        if _starts(elements, k):
            end, stop = _run_end(elements, k, inside)
            if end > k and _signal(elements[k:end]):
                if prose:
                    if formula:
                        yield True, formula
                        formula = []
                    yield False, prose
                    prose = []
                formula += elements[k:end]
                k = end
                continue
            prose += elements[k:max(stop, k + 1)]  # no formula starts before the stop
            k = max(stop, k + 1)
            continue
        prose.append(elements[k])
        k += 1
    if formula:
        yield True, formula
    if prose:
        yield False, prose


# -- LaTeX of a formula ------------------------------------------------------------------


def _ident_latex(name: str, called: bool = False) -> str:
    parts = _split_subscripts(name)
    base, subs = parts[0], parts[1:]
    decorations = []
    while subs and subs[0] in ("hat", "star", "bar", "tilde"):
        decorations.append(subs.pop(0))  # eta_hat_n is the estimate of eta, indexed by n
    accent = ""
    nfd = unicodedata.normalize("NFD", base)
    marks = [c for c in nfd if unicodedata.combining(c)]
    if marks:
        letters = "".join(c for c in nfd if not unicodedata.combining(c))
        if len(letters.rstrip("0123456789")) == 1 and marks[0] in _ACCENTS:
            accent = _ACCENTS[marks[0]]
        base = letters
    letters = base.rstrip("0123456789")
    digits = base[len(letters):]
    star = hat = bar = False
    if letters not in _GREEK_NAMES and letters not in _FUNCTIONS:
        for suffix in ("star", "hat", "bar"):
            if letters.endswith(suffix) and letters[: -len(suffix)] in _GREEK_NAMES:
                letters = letters[: -len(suffix)]
                star, hat, bar = suffix == "star", suffix == "hat", suffix == "bar"
                break
    if letters in _GREEK_NAMES:
        head = _GREEK_NAMES[letters]
    elif letters in _FUNCTIONS and (called or subs):
        head = _FUNCTIONS[letters] or r"\operatorname{abs}"
    elif len(letters) == 1:
        head = letters
    else:
        head = rf"\mathrm{{{letters}}}"
    if accent:
        head = f"{accent}{{{head}}}"
    if hat:
        head = rf"\hat{{{head}}}"
    if bar:
        head = rf"\bar{{{head}}}"
    for deco in decorations:
        if deco != "star":
            head = rf"\{deco}{{{head}}}"
    star = star or "star" in decorations
    sub_parts = ([digits] if digits else []) + [_sub_latex(s) for s in subs]
    out = head
    if sub_parts:
        out += "_{" + ",".join(sub_parts) + "}"
    if star:
        out += "^{*}"
    return out


def _split_subscripts(name: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for c in name:
        if c == "_" and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        cur += c
    parts.append(cur)
    return parts


def _sub_latex(sub: str) -> str:
    if sub[:1] in "{(" and sub[-1:] in "})":
        return formula_latex(sub[1:-1])
    if sub.isdigit():
        return sub
    if re.fullmatch(r"[A-Za-z]+\d*", sub):
        letters = sub.rstrip("0123456789")
        digits = sub[len(letters):]
        if letters in _GREEK_NAMES:
            head = _GREEK_NAMES[letters]
        elif len(letters) == 1:
            head = letters
        else:
            head = rf"\mathrm{{{letters}}}"
        return head + digits
    return formula_latex(sub)


def _script_latex(e: _El) -> str:
    if e.kind == "sup":
        body = "".join(_SUPERSCRIPTS.get(c, c) for c in e.text)
        return "^{" + body + "}"
    if e.kind == "sub":
        return "_{" + "".join(_SUBSCRIPTS.get(c, c) for c in e.text) + "}"
    return "_{" + _sub_latex(e.text[1:]) + "}"


def _inner_latex(e: _El) -> str:
    """An exponent's or subscript's operand: a bracket group's content without brackets."""
    if e.kind == "group" and e.text in "({" and e.close in ")}":
        return _latex(e.children, inside=True)
    return _latex([e], inside=True)


def _latex(elements: Sequence[_El], inside: bool = False) -> str:
    out: list[str] = []
    k = 0
    n = len(elements)
    while k < n:
        e = elements[k]
        nxt = elements[k + 1] if k + 1 < n else None
        if e.kind == "ws":
            out.append(" ")
        elif e.kind == "num":
            m = re.fullmatch(r"(\d+(?:\.\d+)?)[eE]([-+]?\d+)", e.text)
            out.append(rf"{m.group(1)} \times 10^{{{int(m.group(2))}}}" if m else e.text)
        elif e.kind == "ident":
            if e.text == "D" and nxt is not None and nxt.kind == "group" and nxt.text == "[":
                names = [c for c in nxt.children if c.kind not in ("ws", "other")]
                out.append(r"\partial_{" + " ".join(_latex([c], True) for c in names) + "}")
                k += 2
                if k < n and elements[k].kind != "ws":
                    out.append(" ")
                continue
            latex = (" ".join(e.text) if e.product else _ident_latex(e.text, called=True))
            if nxt is not None and nxt.kind in ("hat", "tilde"):
                latex = rf"\{nxt.kind}{{{latex}}}"
            if e.text == "sqrt" and nxt is not None and nxt.kind == "group":
                out.append(r"\sqrt{" + _latex(nxt.children, True) + "}")
                k += 2
                continue
            if e.text == "Abs" and nxt is not None and nxt.kind == "group":
                out.append(r"\left|" + _latex(nxt.children, True) + r"\right|")
                k += 2
                continue
            out.append(latex)
            if nxt is not None and nxt.kind in ("ident", "num", "greek") and \
                    latex.startswith("\\") and latex[-1].isalpha():
                out.append(" ")
        elif e.kind == "greek":
            letter = e.text[0]
            head = _GREEK_LETTERS.get(letter, letter)
            marks = [c for c in e.text[1:] if c in _ACCENTS]
            if marks:
                head = f"{_ACCENTS[marks[0]]}{{{head}}}"
            if nxt is not None and nxt.kind == "num" and re.fullmatch(r"\d{1,2}", nxt.text):
                out.append(f"{head}_{{{nxt.text}}}")
                k += 2
                continue
            out.append(head + (" " if nxt is not None and nxt.kind in ("ident", "num", "greek")
                               else ""))
        elif e.kind in ("sup", "sub", "subscript"):
            out.append(_script_latex(e))
        elif e.kind == "prime":
            out.append("'" * len(e.text))
        elif e.kind == "star":
            out.append("^{*}")
        elif e.kind in ("hat", "tilde"):
            pass  # written with its symbol
        elif e.kind == "sym":
            latex = _SYMBOLS[e.text]
            prev = elements[k - 1] if k > 0 else None
            if e.text == "∞" and prev is not None and prev.kind == "group" and prev.text in (
                "‖", "||", "|"
            ):
                out.append(r"_{\infty}")  # ‖v‖∞
                k += 1
                continue
            if e.text == "√":
                j, operand = _next_solid(elements, k + 1)
                if operand is not None and operand.kind != "op":
                    out.append(r"\sqrt{" + _inner_latex(operand) + "}")
                    k = j + 1
                    continue
            out.append(latex + (" " if latex[-1].isalpha() else ""))
        elif e.kind == "op":
            if e.text in ("**", "^"):
                j, operand = _next_solid(elements, k + 1)
                sign = ""
                if operand is not None and operand.kind == "op" and operand.text in "-−":
                    sign = "-"
                    j, operand = _next_solid(elements, j + 1)
                if operand is None:
                    k += 1
                    continue
                body = _inner_latex(operand)
                j2 = j + 1
                # a following script of the operand (σ0^{−0.25}) or a call stays inside
                while (j2 < n and elements[j2].kind in ("sub", "subscript")) or (
                    operand.kind == "greek" and j2 < n and elements[j2].kind == "num"
                    and j2 == j + 1
                ):
                    body += _latex([elements[j2]], True)
                    j2 += 1
                out.append("^{" + sign + body + "}")
                k = j2
                continue
            if e.text == "*":
                j, operand = _next_solid(elements, k + 1)
                prev = elements[k - 1] if k > 0 else None
                if operand is None or not (_operand(operand) or operand.kind == "sym"):
                    out.append("^{*}")
                elif prev is not None and prev.kind == "num" and operand.kind == "num":
                    out.append(r" \cdot ")
                else:
                    out.append(" ")
                k += 1
                continue
            latex = _BINARY.get(e.text, e.text)
            out.append(latex + (" " if latex.startswith("\\") else ""))
        elif e.kind == "group":
            opener = _OPEN_LATEX.get(e.text, e.text)
            closer = _CLOSE_LATEX.get(e.close, e.close)
            out.append(opener + _latex(e.children, inside=True) + closer)
        elif e.kind == "other":
            text = e.text
            out.append({",": ", ", ";": "; ", ":": ": "}.get(text, _escape_tex(text)))
        k += 1
    latex = "".join(out)
    latex = re.sub(r"(?<=[,;]) +", " ", latex)
    return re.sub(r" {2,}", " ", latex).strip() if not inside else re.sub(r" {2,}", " ", latex)


def _tex_tokens(latex: str, i: int = 0) -> tuple[list[str | list], int]:
    """LaTeX as tokens (commands, characters) and brace groups (nested lists)."""
    out: list[str | list] = []
    while i < len(latex):
        c = latex[i]
        if c == "{":
            inner, i = _tex_tokens(latex, i + 1)
            out.append(inner)
            continue
        if c == "}":
            return out, i + 1
        if c == "\\":
            m = re.match(r"\\(?:[A-Za-z]+|.)", latex[i:])
            token = m.group() if m else "\\"
            out.append(token)
            i += len(token)
            continue
        out.append(c)
        i += 1
    return out, i


def _tex_text(tokens: Sequence[str | list]) -> str:
    return "".join("{" + _tex_text(t) + "}" if isinstance(t, list) else t for t in tokens)


def _fix_scripts(latex: str) -> str:
    r"""LaTeX that MathJax can read whatever the text it came from: two subscripts in a row
    merge (``x_{1}_{i}`` → ``x_{1,i}``), a prime after a superscript goes inside it
    (``θ^{m}'`` → ``θ^{m'}``), a second superscript gets an empty base.

    Examples
    --------
    >>> _fix_scripts(r"\beta_{1}_{i} + \theta^{m}' + x^{2}^{3}")
    "\\beta_{1,i} + \\theta^{m'} + x^{2}{}^{3}"
    """
    tokens, _ = _tex_tokens(latex)
    return _tex_text(_fix_tokens(tokens))


def _fix_tokens(tokens: list[str | list]) -> list[str | list]:
    out: list[str | list] = []
    last = ""  # the script just closed: "_" or "^"
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if isinstance(t, list):
            out.append(_fix_tokens(t))
            k += 1
            last = ""
            continue
        if t in ("_", "^") and k + 1 < len(tokens):
            raw = tokens[k + 1]
            arg: list[str | list] = _fix_tokens(raw) if isinstance(raw, list) else [raw]
            if last == t == "_":
                prev = out[-1]
                out[-1] = [*(prev if isinstance(prev, list) else [prev]), ",", *arg]
            elif last == t == "^":
                out += [[], t, arg if isinstance(raw, list) else raw]
            else:
                out += [t, arg if isinstance(raw, list) else raw]  # x^2 stays x^2
            last = t
            k += 2
            continue
        if t == "'" and last == "^":
            prev = out[-1]
            out[-1] = [*(prev if isinstance(prev, list) else [prev]), "'"]
            k += 1
            continue
        if t != " ":
            last = "" if t not in ("'",) else last
        out.append(t)
        k += 1
    return out


def _escape_tex(text: str) -> str:
    return "".join("\\" + c if c in "#$%&_{}" else r"\backslash " if c == "\\" else
                   r"\text{" + c + "}" if ord(c) > 127 else c for c in text)


def formula_latex(text: str) -> str:
    """The LaTeX of a text that is one formula written in ASCII or Unicode.

    Parameters
    ----------
    text : str
        A formula such as ``"eta_i != -eta_j"`` or ``"‖w_t − w_{t−1}‖²"``.

    Returns
    -------
    str
        Its LaTeX, without ``$`` delimiters.

    Examples
    --------
    >>> formula_latex("L_{T1}^{(m_tau)}")
    'L_{T_{1}}^{(m_{\\\\tau})}'
    >>> formula_latex("(1-r)/(t-1) sum_{i<t} (1 - r^(t-i)) D/N²")
    '(1-r)/(t-1) \\\\sum_{i<t} (1 - r^{t-i}) D/N^{2}'
    """
    if len(text) > MAX_PROSE:
        return _escape_tex(text)
    elements = _elements(_tokens(text))
    _mark_word_atoms(elements)
    return _latex(elements, inside=False)


# -- prose -------------------------------------------------------------------------------

#: Characters of a text searched for formulas: a longer text (three times a report's
#: longest reading) is shown as written, its ``$...$`` maths kept, so that the search, linear
#: but slow per character, stays under a second whatever the text.
MAX_PROSE = 50_000

_MYST_SPECIALS = re.compile(r"([\\`*_$\[\]<>|{}#~&!^%])")
#: ``$…$`` or ``$$…$$`` maths and backtick code spans: kept as they are.
_KEPT = re.compile(r"(\$\$[^$]+\$\$|\$[^$\s](?:[^$]*[^$\s])?\$|(?<!`)(`+)(?!`).+?(?<!`)\2(?!`))",
                   re.S)
#: In the MyST of a check, ``$…$`` may hold spaces next to its dollars (``$\varphi = $``).
_KEPT_MARKDOWN = re.compile(r"(\$\$[^$]+\$\$|\$[^$]+\$|(?<!`)(`+)(?!`).+?(?<!`)\2(?!`))", re.S)
#: Sentinels of emphasis markers while the text is typeset.
_EM1, _EM2 = "\ue000", "\ue001"
#: Markdown emphasis markers (kept in MyST text), told apart from ``*`` and ``**`` operators.
_EMPHASIS = re.compile(r"(?<![\w)\]}*\\])\*{1,2}(?=[^\s*])|(?<=[^\s*\\])\*{1,2}(?![\w({*])")


def _escape(text: str) -> str:
    """Text that MyST shows as written: every special character backslash-escaped."""
    return _MYST_SPECIALS.sub(r"\\\1", text)


def _maths(latex: str, cell: bool) -> str:
    r"""``$latex$``; in a table cell its pipes, which would end the cell, as ``\Vert`` and
    ``\vert``."""
    latex = _fix_scripts(safe_tex(latex.strip()))
    if cell:
        latex = re.sub(r"(?<!\\)\|", r"\\vert ", latex.replace("\\|", "\\Vert ")).strip()
    return "$" + latex + "$"


_TAG = re.compile(r"(</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>)")


def _segment(text: str, cell: bool) -> str:
    """One stretch of prose without kept spans: formulas typeset, the rest escaped (an HTML
    tag in a report is text, shown as written)."""
    if _TAG.search(text):
        parts = _TAG.split(text)
        return "".join(_escape(p) if i % 2 else _segment(p, cell)
                       for i, p in enumerate(parts))
    elements = _elements(_tokens(text))
    _mark_word_atoms(elements)
    return "".join(_piece(formula, els, cell) for formula, els in _runs(elements))


def _piece(formula: bool, elements: list[_El], cell: bool) -> str:
    if formula:
        return _maths(_latex(elements), cell)
    out: list[str] = []
    for e in elements:
        if e.kind == "group" and not e.maths:
            out.append(_escape(e.text))
            out += [_piece(f, els, cell) for f, els in _runs(e.children, inside=False)]
            out.append(_escape(e.close))
        elif e.kind == "ident" and _role(e) == "code" and "`" not in e.text:
            out.append(f"`{e.text}`")  # a program's name: max_iter, voronoi_l1
        elif (e.kind == "op" and e.text in _LONE) or e.kind in ("sup", "sub") or (
            e.kind == "sym" and e.text != "…"
        ) or (e.kind == "other" and e.text == "‖"):
            latex = _latex([e]) if e.kind != "other" else r"\|"
            out.append(_maths(latex if e.kind not in ("sup", "sub") else "{}" + latex, cell))
        else:
            out.append(_escape(e.source))
    joined = ""
    for piece in out:
        if joined.endswith("$") and piece.startswith("$"):
            joined += " "
        joined += piece
    return joined


#: Operators that are typeset even alone in prose ("X → inconclusive").
_LONE = frozenset({"!=", "<=", ">=", "->", "=>", "≤", "≥", "≠", "≈", "→", "←", "⇒", "⇔", "∈",
                   "∉", "⊂", "⊆", "∪", "∩", "≡", "≪", "≫", "∝", "↦", "⊗", "±", "×"})


def _safe_maths(span: str, cell: bool) -> str:
    """A ``$…$`` span of a report, kept as maths when MyST can read it as such."""
    display = span.startswith("$$")
    body = span[2:-2] if display else span[1:-1]
    body = " ".join(body.split())
    if not body or body.count("{") != body.count("}"):
        return _escape(span)
    return _maths(body, cell)


def mark_emphasis(text: str) -> str:
    """``text`` with its Markdown emphasis markers as sentinels (found around code and
    maths), so that a text cut in pieces keeps them; :func:`prose_myst` writes them back."""
    flat = text.replace(_EM1, "").replace(_EM2, "")
    masked = _KEPT_MARKDOWN.sub(lambda m: "x" * len(m.group()), flat)
    pieces: list[str] = []
    last = 0
    for m in _EMPHASIS.finditer(masked):
        pieces += [flat[last:m.start()], _EM2 if m.end() - m.start() == 2 else _EM1]
        last = m.end()
    pieces.append(flat[last:])
    return "".join(pieces)


def prose_myst(text: str, markdown: bool = False, cell: bool = False,
               marked: bool = False) -> str:
    r"""Plain text as MyST, every formula in it typeset.

    Parameters
    ----------
    text : str
        A text of a report (a summary, a reading, an evidence value), possibly holding
        ``$…$`` LaTeX and backtick code, which are kept.
    markdown : bool
        Keep Markdown emphasis (``*word*``, ``**word**``), as in the ``*_latex`` fields and
        derivations; otherwise every special character is escaped.
    cell : bool
        The text is a table cell: pipes inside formulas are written ``\vert``.
    marked : bool
        The emphasis markers are already sentinels (:func:`mark_emphasis`).

    Returns
    -------
    str
        One line of MyST: formulas as ``$…$``, everything else escaped so that MyST and
        HTML show it as text.

    Examples
    --------
    >>> prose_myst("at d = 1, k = 2: 20 functions; tau2 > 0")
    'at $d = 1$, $k = 2$: 20 functions; $\\tau_{2} > 0$'
    >>> prose_myst("pcos-2 [d=2] and the sign-flipped atoms <b>")
    'pcos-2 $[d=2]$ and the sign-flipped atoms \\<b\\>'
    >>> prose_myst("**every** x**2 >= 0", markdown=True)
    '**every** $x^{2} \\ge 0$'
    """
    flat = " ".join(str(text).split())
    kept = _KEPT_MARKDOWN if markdown else _KEPT
    segment = _segment if len(flat) <= MAX_PROSE else lambda piece, cell: _escape(piece)
    if not marked:
        flat = mark_emphasis(flat) if markdown else flat.replace(_EM1, "").replace(_EM2, "")
    out: list[str] = []
    last = 0
    for m in kept.finditer(flat):
        out.append(segment(flat[last:m.start()], cell))
        span = m.group()
        out.append(_safe_maths(span, cell) if span.startswith("$") else span)
        last = m.end()
    out.append(segment(flat[last:], cell))
    joined = ""
    for piece in out:
        if joined.endswith("$") and piece.startswith("$"):
            joined += " "  # "$a$$b$" would read as a display
        joined += piece
    return joined.replace(_EM2, "**").replace(_EM1, "*")


#: In the MyST of :func:`prose_myst`: a formula, a code span, or an escaped character.
_MYST_PIECE = re.compile(r"(?<!\\)\$((?:[^$\\]|\\.)+)\$|`([^`]+)`|\\(.)")


def prose_unicode(text: str) -> str:
    r"""Plain text with every formula in it written in Unicode, for a terminal.

    Parameters
    ----------
    text : str
        A text of a report, as for :func:`prose_myst`.

    Returns
    -------
    str
        The text with each formula :func:`prose_myst` finds (and each ``$…$`` span it
        holds) in Unicode (:func:`~moetheory.engine.mathtext.latex_to_unicode`), code
        spans without their backticks, and the words as written.

    Examples
    --------
    >>> prose_unicode("eta_i = -eta_j for some i != j, r^(t-i) and ||w_n||^2")
    'ηᵢ = -ηⱼ for some i ≠ j, r^(t-i) and ‖wₙ‖²'
    """
    from moetheory.engine.mathtext import latex_to_unicode

    def piece(m: re.Match[str]) -> str:
        formula, code, escaped = m.groups()
        if formula is not None:
            return latex_to_unicode(formula)
        return code if code is not None else escaped

    return _MYST_PIECE.sub(piece, prose_myst(text))
