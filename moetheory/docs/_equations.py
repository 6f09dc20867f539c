r"""The papers' numbered equations, found in the seed documents.

A claim often names an equation by the paper's number ("eq. (19)", "the interaction (4)",
"eq. 1.3"). The book shows each such equation once per section page, numbered as the paper
numbers it (``\tag{19}``) and linkable, and every reference to it links there. The
equations come from the seeds themselves:

* seed 002 (Nguyen et al.) prints each display as ``$\displaystyle …$`` lines followed by a
  line ``(N)``: read as it is;
* seed 003 (a Chinese machine translation of Li et al.) prints its displays without their
  numbers; the lines of the numbered ones are listed here (:data:`_LINES`), each checked
  against the translation's own references (the task loss of (3), (6) and (7) on L99, the
  gate update (9) of Proposition 2 on L135, the forgetting of (19) in Theorem 2 on L205);
* seed 001 (a review of Jacobs et al.) writes the five error functions and gradients as
  ``$$ … $$`` in one paragraph, introduced as "Equation 1.1" to "Equation 1.5", in order.

The LaTeX is the seed's, verbatim but for what MathJax cannot read (``\+``, a line-final
``\``); garbled formulas stay garbled: they are what the claims check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Equation", "paper_equations", "tex_ok"]


@dataclass(frozen=True)
class Equation:
    r"""One numbered display of a paper, as a seed prints it.

    Parameters
    ----------
    paper : str
        The paper's citation key.
    number : str
        The paper's number for it (``"19"``, ``"1.3"``).
    latex : str
        Its LaTeX, as the seed prints it (without ``$``).
    seed_file : str
        The seed document printing it.
    lines : tuple of int
        Its lines in the seed (with the line of its number, for seed 002).

    See Also
    --------
    paper_equations : the equations of a paper.

    Notes
    -----
    The section pages display each equation their claims name, numbered with
    ``\tag{number}`` and anchored at :attr:`anchor`.

    Examples
    --------
    >>> Equation("li2025continual", "19", "x", "003_3078ccb5100b14b7.txt", (187,)).anchor
    'eq-li2025continual-19'
    """

    paper: str
    number: str
    latex: str
    seed_file: str
    lines: tuple[int, ...]

    @property
    def anchor(self) -> str:
        """The HTML id of the equation on a section page."""
        return f"eq-{self.paper}-{self.number.replace('.', '-')}"


#: Seed 003: equation number -> its display lines (the translation drops the numbers).
_LINES: dict[str, dict[str, tuple[int, ...]]] = {
    "003_3078ccb5100b14b7.txt": {
        "3": (72,), "4": (76,), "5": (80,), "6": (89,), "7": (95,), "8": (101,), "9": (105,),
        "17": (171,), "18": (175,), "19": (187,),
        "20": (191,), "21": (207, 208), "22": (212,),
    },
}
_PAPER_OF_SEED = {
    "001_4a7126a84a0d22c9.txt": "jacobs1991adaptive",
    "002_ed39350ac6d6e1c0.txt": "nguyen2025cosine",
    "003_3078ccb5100b14b7.txt": "li2025continual",
}


def tex_ok(latex: str) -> bool:
    r"""Whether MathJax can typeset ``latex``.

    Parameters
    ----------
    latex : str
        A formula without delimiters.

    Returns
    -------
    bool
        True when its braces and ``\left``/``\right`` balance, it holds no ``$`` and no
        command MathJax lacks (``\+``).

    See Also
    --------
    paper_equations : keeps only the equations that pass.

    Notes
    -----
    A syntactic check, not a TeX engine: what it lets through, the browser test of the
    built site typesets without error.

    Examples
    --------
    >>> tex_ok(r"\frac{1}{2}"), tex_ok(r"\frac{1}{2"), tex_ok(r"\left( x"), tex_ok(r"a \+ b")
    (True, False, False, False)
    """
    if "$" in latex or not latex.strip():
        return False
    depth = 0
    i = 0
    while i < len(latex):
        c = latex[i]
        if c == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0:
            return False
        i += 1
    if depth:
        return False
    if len(re.findall(r"\\left\b", latex)) != len(re.findall(r"\\right\b", latex)):
        return False
    return re.search(r"\\[^A-Za-z{}|,;:!\s\\#%&_$^()\[\]]", latex) is None


def _clean(latex: str) -> str:
    latex = latex.replace(r"\+", "+").replace(r"\displaystyle", "")
    latex = re.sub(r"\\\s*$", "", latex.strip())
    return " ".join(latex.split())


@lru_cache(maxsize=8)
def _equations_of(path: Path) -> tuple[Equation, ...]:
    seed = path.name
    paper = _PAPER_OF_SEED.get(seed)
    if paper is None or not path.is_file():
        return ()
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Equation] = []
    if seed in _LINES:
        for number, numbers in _LINES[seed].items():
            latex = _clean(" ".join(lines[n - 1] for n in numbers if 0 < n <= len(lines)))
            if tex_ok(latex):
                found.append(Equation(paper, number, latex, seed, numbers))
    elif seed.startswith("002_"):
        for i, line in enumerate(lines):
            m = re.fullmatch(r"\((\d+)\)", line.strip())
            if not m:
                continue
            body: list[int] = []
            j = i - 1
            while j >= 0 and (not lines[j].strip() or lines[j].startswith("$\\displaystyle")):
                if lines[j].strip():
                    body.insert(0, j + 1)
                j -= 1
            latex = _clean(" ".join(lines[n - 1].strip().strip("$") for n in body))
            if body and tex_ok(latex):
                found.append(Equation(paper, m.group(1), latex, seed, (*body, i + 1)))
    elif seed.startswith("001_"):
        for n, line in enumerate(lines, start=1):
            for k, m in enumerate(re.finditer(r"\$\$(.+?)\$\$", line)):
                if k < 5 and tex_ok(_clean(m.group(1))):
                    found.append(Equation(paper, f"1.{k + 1}", _clean(m.group(1)), seed, (n,)))
    return tuple(found)


def paper_equations(seeds_dir: Path | None, paper: str) -> dict[str, Equation]:
    r"""The numbered equations of ``paper`` found in its seeds: number -> equation.

    Parameters
    ----------
    seeds_dir : Path or None
        The seed documents' folder (``None``: no equations).
    paper : str
        A paper's citation key.

    Returns
    -------
    dict of str to Equation
        In the paper's order.

    See Also
    --------
    Equation : one of them.

    Notes
    -----
    An equation whose LaTeX MathJax could not read (:func:`tex_ok`) is left out.

    Examples
    --------
    >>> from moetheory.docs._names import SEEDS_DIR
    >>> eqs = paper_equations(SEEDS_DIR, "nguyen2025cosine")
    >>> eqs["4"].latex.startswith(r"\beta_{1}^{\top}\frac{\partial H}")
    True
    >>> sorted(paper_equations(SEEDS_DIR, "jacobs1991adaptive"))
    ['1.1', '1.2', '1.3', '1.4', '1.5']
    """
    if seeds_dir is None:
        return {}
    out: dict[str, Equation] = {}
    for seed, key in _PAPER_OF_SEED.items():
        if key == paper:
            for eq in _equations_of(Path(seeds_dir) / seed):
                out.setdefault(eq.number, eq)
    return out
