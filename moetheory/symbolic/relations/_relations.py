r"""What the relation search returns: one relation (:class:`Relation`) and all relations of a
pair (:class:`InteractionResult`), printed as text and LaTeX. Public through
:mod:`moetheory.symbolic.interactions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from moetheory.symbolic.relations._specs import ExpertSpec, RouterSpec, symbol_latex

__all__ = [
    "InteractionResult",
    "Relation",
]

#: The parameter norm :math:`\|\beta_1\|` in printed coefficients.
_R_BETA = sp.Symbol("r_beta", positive=True)


@dataclass(frozen=True)
class Relation:
    r"""One relation :math:`\sum_\alpha c_\alpha\,\partial^\alpha H = 0`.

    Attributes
    ----------
    terms : tuple of (multi-index, coefficient)
        The multi-index is a sorted tuple of parameter symbols (``()`` is :math:`H`); the
        coefficient a polynomial in the parameters (and ``r_beta`` :math:`= \|\beta_1\|`).
    order : int
        The largest :math:`|\alpha|` with a non-zero coefficient.
    generator : bool
        ``False`` when the relation is implied by lower-order ones (a derivative of one).
    certificate : str
        How it was verified.

    Notes
    -----
    Coefficients have their denominators cleared (polynomials in the parameters and
    :math:`\|\beta_1\|`), never depend on :math:`x`, and are normalised to be primitive.

    See Also
    --------
    interactions : finds them.
    lift : in every dimension.

    Examples
    --------
    >>> a, bb = sp.symbols("a_1 beta1_1", real=True)
    >>> Relation((((a,), sp.Integer(1)), ((bb, a), sp.Integer(-1))), 2).text
    'H_{a_1} - H_{beta1_1,a_1} = 0'
    """

    terms: tuple[tuple[tuple[sp.Symbol, ...], sp.Expr], ...]
    order: int
    generator: bool = True
    certificate: str = ""

    @property
    def text(self) -> str:
        """Plain text, e.g. ``b*H_{a_1} - H_{beta1_1,b} = 0``."""
        parts = []
        for alpha, c in self._printable_terms():
            d = "H" if not alpha else "H_{" + ",".join(map(str, alpha)) + "}"
            parts.append(d if c == 1 else f"-{d}" if c == -1 else f"({sp.sstr(c)})*{d}"
                         if isinstance(c, sp.Add) else f"{sp.sstr(c)}*{d}")
        return " + ".join(parts).replace("+ -", "- ") + " = 0"

    def _printable_terms(self) -> list[tuple[tuple[sp.Symbol, ...], sp.Expr]]:
        """The terms with every coefficient rebuilt bottom-up, as SymPy evaluates it.

        ``sp.factor`` keeps a number outside a sum (``2*(2*x - y)``), which SymPy's own
        evaluation distributes (``4*x - 2*y``) whenever the expression is rebuilt — by a
        pickle round trip from a worker process, for one. Printing the rebuilt form makes
        the text the same whichever process computed the relation.
        """
        def rebuild(node: sp.Basic) -> sp.Basic:
            return node.func(*node.args) if node.args else node

        return [(alpha, sp.bottom_up(c, rebuild)) for alpha, c in self.terms]

    def latex(self) -> str:
        r"""LaTeX, with :math:`\partial` notation."""
        terms = self._printable_terms()
        names = {s: symbol_latex(s) for alpha, c in terms
                 for s in (*alpha, *c.free_symbols)}
        names[_R_BETA] = r"\Vert\beta_1\Vert"  # no "|": relations are put in tables
        out = []
        for alpha, c in terms:
            if not alpha:
                d = "H"
            else:
                counts: dict[sp.Symbol, int] = {}
                for p in alpha:
                    counts[p] = counts.get(p, 0) + 1
                den = " ".join(rf"\partial {names[p]}" + (f"^{k}" if k > 1 else "")
                               for p, k in counts.items())
                d = rf"\frac{{\partial{'^' + str(len(alpha)) if len(alpha) > 1 else ''} H}}" \
                    rf"{{{den}}}"
            ct = sp.latex(c, symbol_names=names)
            if c == 1:
                out.append(("+", d))
            elif c == -1:
                out.append(("-", d))
            elif isinstance(c, sp.Add):
                out.append(("+", rf"\left({ct}\right) {d}"))
            elif ct.startswith("-"):
                out.append(("-", ct[1:] + " " + d))
            else:
                out.append(("+", ct + " " + d))
        s = "".join(f" {sign} {t}" for sign, t in out).strip()
        return (s[2:] if s.startswith("+ ") else "-" + s[2:]) + " = 0"

    def _repr_latex_(self) -> str:
        """The relation as one formula (for a notebook)."""
        return f"${self.latex()}$"


@dataclass
class InteractionResult:
    r"""All relations of one (router, expert) pair at one dimension, with the evidence.

    Parameters
    ----------
    router : RouterSpec
    expert : ExpertSpec
        The pair.
    d, order : int
        The dimension and the largest total order searched.
    params : tuple of sympy.Symbol
        Router then expert parameters.
    relations : list of Relation
        The generators (not derivatives of lower-order relations), each verified exactly.
    implied : list of Relation
        Derivatives of lower-order relations completing a basis (independent: each counted
        once).
    n_derivatives : int
        Number of :math:`\partial^\alpha H`, :math:`|\alpha| \le` ``order``.
    points : int
        Rational sample points behind the completeness claim.
    pieces : int
        Smooth pieces of the expert.
    coefficient_ring : str
        ``"Q(params)"``, extended by :math:`\|\beta_1\|` when the router uses it.
    assumptions : list of str
        The genericity assumptions (LaTeX in ``$...$``).
    relation_space_dim : int
        Dimension of the space of all relations up to ``order`` (over the coefficient
        field): ``len(relations) + len(implied)``, which are a basis of it.
    second_point_agrees : bool
        Whether the exact null space at a second, independent point of the parameters has
        the same dimension (a check that the first point is generic).

    Notes
    -----
    The relations span every relation up to ``order``: the exact null space of the sampled
    values has the same dimension as the verified basis. ``relations`` and ``implied``
    together are linearly independent.

    See Also
    --------
    interactions : builds it.

    Examples
    --------
    >>> from moetheory.symbolic.interactions import EXPERTS, ROUTERS, interactions
    >>> res = interactions(ROUTERS["linear"], EXPERTS["linear"], order=1, d=1)
    >>> res.n_derivatives, res.coefficient_ring
    (4, 'Q(params)')
    """

    router: RouterSpec
    expert: ExpertSpec
    d: int
    order: int
    params: tuple[sp.Symbol, ...]
    relations: list[Relation]
    implied: list[Relation]
    n_derivatives: int
    points: int
    pieces: int
    coefficient_ring: str
    assumptions: list[str] = field(default_factory=list)
    relation_space_dim: int = 0
    second_point_agrees: bool = True

    def evidence(self) -> dict[str, Any]:
        """JSON-able summary."""
        return {
            "router": self.router.name,
            "expert": self.expert.name,
            "d": self.d,
            "order": self.order,
            "params": [str(p) for p in self.params],
            "derivatives": self.n_derivatives,
            "sample_points": self.points,
            "pieces": self.pieces,
            "coefficient_ring": self.coefficient_ring,
            "generators": [r.text for r in self.relations],
            "implied_by_lower_order": len(self.implied),
            "relation_space_dim": self.relation_space_dim,
            "certificate": "each relation: numerator of the combination reduces to the zero "
            "polynomial modulo r^2 - radicand (exact); completeness: null space of the exact "
            "value matrix at rational points contains every relation",
            "assumptions": self.assumptions,
        }

    def _card(self) -> Any:
        from moetheory.engine.display import Card, literal

        pair = f"{literal(self.router.name)} router × {literal(self.expert.name)} expert"
        scope = f"$d = {self.d}$, order $\\le {self.order}$"
        n = len(self.relations)
        summary = (
            f"{n} generating relation{'s' if n != 1 else ''} among the derivatives of "
            f"$H = G\\,h$ ({scope})"
            if n else f"no relation of order $\\le {self.order}$ among the derivatives of "
            f"$H = G\\,h$ in $d = {self.d}$"
        )
        generators = [(f"({i})", f"${r.latex()}$") for i, r in enumerate(self.relations, 1)]
        fields: list[tuple[str, Any]] = [
            ("router", f"$G = {self.router.latex}$"),
            ("expert", f"$h = {self.expert.latex}$"),
        ]
        if generators:
            fields.append(("generators", generators))
        fields += [
            ("implied by lower order", f"`{len(self.implied)}`"),
            ("derivatives", f"`{self.n_derivatives}` of order $\\le {self.order}$"),
            ("coefficients", literal(self.coefficient_ring)),
            ("completeness", f"exact null space at `{self.points}` rational points"),
        ]
        if self.assumptions:
            fields.append(("assumptions", "; ".join(self.assumptions)))
        return Card(title="Relations of the " + pair, summary=summary, fields=fields)

    def _repr_markdown_(self) -> str:
        """The result in a notebook: every generating relation typeset, with its scope."""
        return str(self._card().markdown())

    def _repr_html_(self) -> str:
        """The result in a notebook, as escaped HTML with MathJax maths."""
        return str(self._card().html())
