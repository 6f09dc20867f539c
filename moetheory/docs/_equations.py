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
``\``); garbled formulas stay garbled: they are what the claims check. Beside each garbled
print of seed 003 the book shows a *reconstruction* (:data:`_RECONSTRUCTED`): the same
equation typeset with what the translation lost put back (braces and subscripts run
together, ``\lVert`` printed as ``|``, ``n \ne n'`` printed as ``n = n'``), read from the
translation's own definitions and the original paper's setting (Li et al. 2025). It restores
notation, never corrects mathematics, and is labelled as ours.
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
    reconstructed : str
        For a garbled print: the equation typeset as we reconstruct it (LaTeX without
        ``$``), or ``""``.
    note : str
        What the reconstruction had to decide beyond restoring notation (Markdown with
        ``$...$`` maths), or ``""``.

    See Also
    --------
    paper_equations : the equations of a paper.

    Notes
    -----
    The section pages display each equation their claims name, numbered with
    ``\tag{number}`` and anchored at :attr:`anchor`; a reconstruction follows the print,
    numbered ``number'``.

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
    reconstructed: str = ""
    note: str = ""

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
#: Seed 003's numbered equations typeset as we reconstruct them: number -> (LaTeX, note).
#: The notation is the translation's own (its Definition 1, eqs. (2)-(9), Proposition 4,
#: Theorems 1-2 and the definitions after them); ``L_t^{(m)} = t f_t^{(m)}`` as defined
#: before Theorem 1. The sums ``\sum_{n = n'}`` of the print are read as over pairs
#: ``n \ne n'`` (the terms with ``n = n'`` vanish, so this is also the sum over all ordered
#: pairs, the reading the claims check first).
_PAIRS = (r"The print's $\sum_{n = n'}$ is read as the sum over pairs $n \ne n'$ (the terms "
          r"with $n = n'$ are zero, so it is also the sum over all ordered pairs).")
_W = r"\mathbf{w}"
_RECONSTRUCTED: dict[str, dict[str, tuple[str, str]]] = {
    "003_3078ccb5100b14b7.txt": {
        "3": (rf"L^{{\mathrm{{tr}}}}_t\bigl({_W}^{{(m_t)}}_t, \mathcal D_t\bigr) = \frac{{1}}"
              rf"{{s_t}} \bigl\lVert X_t^\top {_W}^{{(m_t)}}_t - \mathbf y_t \bigr\rVert_2^2",
              ""),
        "4": (rf"\min_{{{_W}}}\ \bigl\lVert {_W} - {_W}^{{(m_t)}}_{{t-1}} \bigr\rVert_2^2 "
              rf"\quad \text{{s.t.}} \quad X_t^\top {_W} = \mathbf y_t", ""),
        "5": (rf"{_W}^{{(m_t)}}_t = {_W}^{{(m_t)}}_{{t-1}} + X_t \bigl(X_t^\top X_t\bigr)^{{-1}}"
              rf" \bigl(\mathbf y_t - X_t^\top {_W}^{{(m_t)}}_{{t-1}}\bigr)", ""),
        "6": (rf"L^{{\mathrm{{loc}}}}_t\bigl(\Theta_t, \mathcal D_t\bigr) = \sum_{{m \in [M]}} "
              rf"\pi_m(X_t, \Theta_t)\, \bigl\lVert {_W}^{{(m)}}_t - {_W}^{{(m)}}_{{t-1}} "
              r"\bigr\rVert_2^2", ""),
        "7": (r"\begin{aligned} L^{\mathrm{aux}}_t\bigl(\Theta_t, \mathcal D_t\bigr) &= \alpha "
              r"\cdot M \cdot \sum_{m \in [M]} f^{(m)}_t \cdot P^{(m)}_t, \cr f^{(m)}_t &= "
              r"\frac{1}{t} \sum_{\tau=1}^{t} \mathbb 1\{m_\tau = m\}, \qquad P^{(m)}_t = "
              r"\frac{1}{t} \sum_{\tau=1}^{t} \pi_m(X_\tau, \Theta_\tau) \cdot "
              r"\mathbb 1\{m_\tau = m\} \end{aligned}",
              r"The second line is the translation's definition of $f^{(m)}_t$ and "
              r"$P^{(m)}_t$, in the sentence after the display."),
        "8": (rf"L^{{\mathrm{{task}}}}_t\bigl(\Theta_t, {_W}^{{(m_t)}}_t, \mathcal D_t\bigr) = "
              rf"L^{{\mathrm{{tr}}}}_t\bigl({_W}^{{(m_t)}}_t, \mathcal D_t\bigr) + "
              r"L^{\mathrm{loc}}_t\bigl(\Theta_t, \mathcal D_t\bigr) + "
              r"L^{\mathrm{aux}}_t\bigl(\Theta_t, \mathcal D_t\bigr)", ""),
        "9": (r"\theta^{(m)}_{t+1} = \theta^{(m)}_t - \eta \cdot \nabla_{\theta^{(m)}_t} "
              rf"L^{{\mathrm{{task}}}}_t\bigl(\Theta_t, {_W}^{{(m_t)}}_t, \mathcal D_t\bigr), "
              r"\quad \forall m \in [M]", ""),
        "17": (r"\mathbb E[F_t] = \frac{1}{t-1} \sum_{\tau=1}^{t-1} \Bigl( \frac{r^{t-\tau}}{N}"
               r" \sum_{n=1}^{N} \lVert w_n \rVert_2^2 + \frac{r^{\tau} - r^{t}}{N^2} "
               r"\sum_{n \ne n'} \lVert w_{n'} - w_n \rVert_2^2 \Bigr)", _PAIRS),
        "18": (r"\mathbb E[G_T] = \frac{r^T}{N} \sum_{n=1}^{N} \lVert w_n \rVert_2^2 + "
               r"\frac{1 - r^T}{N^2} \sum_{n \ne n'} \lVert w_{n'} - w_n \rVert_2^2", _PAIRS),
        "19": (r"\mathbb E[F_t] < \frac{1}{t-1} \sum_{\tau=1}^{t-1} \Bigl( "
               r"\frac{r^{L^{(m_\tau)}_t} - r^{L^{(m_\tau)}_\tau}}{N} \sum_{n=1}^{N} \lVert w_n "
               r"\rVert_2^2 + \frac{r^{L^{(m_\tau)}_\tau} - r^{L^{(m_\tau)}_t}}{N^2} "
               r"\sum_{n \ne n'} \lVert w_{n'} - w_n \rVert_2^2 \Bigr)", _PAIRS),
        "20": (r"\mathbb E[G_T] < \frac{1}{T} \sum_{\tau=1}^{T} \Bigl( "
               r"\frac{r^{L^{(m_\tau)}_{T_1}}}{N} \sum_{n=1}^{N} \lVert w_n \rVert_2^2 + "
               r"\frac{1 - r^{L^{(m_\tau)}_{T_1}}}{N^2} \sum_{n \ne n'} \lVert w_{n'} - w_n "
               r"\rVert_2^2 \Bigr)", _PAIRS),
        "21": (r"\begin{aligned} \mathbb E[F_t] < {} & \frac{1}{t-1} \sum_{\tau=1}^{t-1} "
               r"\frac{r^{L^{(m_\tau)}_t} - r^{L^{(m_\tau)}_\tau}}{N} \sum_{n=1}^{N} \lVert "
               r"w_n \rVert_2^2 \cr & + \frac{1}{t-1} \sum_{\tau=1}^{T_1} "
               r"\frac{r^{L^{(m_\tau)}_\tau} - r^{L^{(m_\tau)}_{T_1}}}{N^2} \sum_{n \ne n'} "
               r"\lVert w_{n'} - w_n \rVert_2^2 \cr & + \Psi_1 \frac{1}{t-1} "
               r"\sum_{\tau=T_1+1}^{t} \bigl(1 - r^{L^{(m_\tau)}_t - L^{(m_\tau)}_\tau}\bigr)"
               r" \, r^{L^{(m_\tau)}_t - L^{(m_\tau)}_{T_1} - 1} \end{aligned}",
               r"The print's exponent $L(m_\tau)i$ is read as $L^{(m_\tau)}_\tau$, and its "
               r"outer parenthesis as closing after the first sum (the second and third "
               r"terms carry their own $\frac{1}{t-1}\sum$), as `cl.thm2.bounds` reads them "
               r"first; the exponents run together in the print ($r^{L(m_\tau)t} - "
               r"L(m\tau)\tau$) are read as one exponent $L^{(m_\tau)}_t - "
               r"L^{(m_\tau)}_\tau$. " + _PAIRS),
        "22": (r"\begin{aligned} \mathbb E[G_T] < {} & \frac{1}{T} \sum_{\tau=1}^{T} "
               r"r^{L^{(m_\tau)}_T} \Bigl( \frac{1}{N} \sum_{n=1}^{N} \lVert w_n \rVert_2^2 "
               r"\cr & \qquad + \frac{1}{T_1} \sum_{\tau=1}^{T_1} r^{L^{(m_\tau)}_T - "
               r"L^{(m_\tau)}_{T_1}} \bigl(1 - r^{L^{(m_\tau)}_{T_1}}\bigr) \frac{1}{N^2} "
               r"\sum_{n \ne n'} \lVert w_{n'} - w_n \rVert_2^2 \Bigr) \cr & + \Psi_2 "
               r"\frac{1}{T} \sum_{\tau=T_1+1}^{T} \bigl(1 - r^{L^{(m_\tau)}_T - "
               r"L^{(m_\tau)}_{T_1}}\bigr) + \Psi_1 \frac{1}{T} \sum_{\tau=T_1+1}^{T} \bigl(1 "
               r"- r^{L^{(m_\tau)}_T - L^{(m_\tau)}_{T_1}}\bigr) \end{aligned}",
               r"Grouped as printed. " + _PAIRS),
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
                rebuilt, note = _RECONSTRUCTED.get(seed, {}).get(number, ("", ""))
                found.append(Equation(paper, number, latex, seed, numbers, rebuilt, note))
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
    r"""The numbered equations of ``paper`` found in its seeds, by number.

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
