r"""Strong identifiability for ALL atoms of ridge experts with meromorphic activations.

For :math:`h(x, \eta) = \varphi(a x + b)`, :math:`\eta = (a, b)`, input dimension
:math:`d = 1`, and a reading of Definition 1
(:class:`~moetheory.symbolic.identifiability.IdentifiabilityReading`) with the perturbed cosine
router
(multiplier :math:`u = x/(|x| + \tau_2)`), the linear router or no router, this module decides
the reading for **every** number of atoms :math:`k` and **every** tuple of pairwise distinct
atoms outside a named exceptional set, by the *singularity route*. See [1]_ for strong
identifiability in softmax-gated mixtures of experts.

The argument
------------
Each family term is :math:`m(x)\,x^l \varphi^{(s)}(a_j x + b_j)` with a rational multiplier
:math:`m = u^\nu` (on :math:`x > 0`: :math:`u = x/(x+\tau_2)`; on :math:`x < 0`:
:math:`u = x/(\tau_2 - x)`), :math:`s = |\gamma|` and :math:`l` the number of
:math:`a`-derivatives, since :math:`\partial_a^l \partial_b^{s-l}\varphi(ax+b) = x^l
\varphi^{(s)}(ax+b)`. Suppose a combination vanishes almost everywhere. On :math:`x > 0` it is
the restriction of a meromorphic function on :math:`\mathbb C`, so it vanishes identically;
the same holds on :math:`x < 0` with the other multipliers.

1. *Poles.* :math:`\varphi = N/D` with :math:`D` :math:`T`-periodic; its poles are exactly
   :math:`z_0 + mT`, :math:`m \in \mathbb Z`, with :math:`z_0 = i\omega`, :math:`T = 2i\omega`,
   all simple with the same residue :math:`\rho = N(z_0)/D'(z_0) \neq 0` (checked by SymPy:
   ``solveset`` of :math:`D`, periodicity of :math:`N` and :math:`D`, the residue). Hence
   :math:`\varphi^{(s)}(z_0 + a w) = (-1)^s s!\,\rho\,a^{-s-1} w^{-s-1} + O(w^{-s})`: the pole
   order is exactly :math:`s + 1` and the leading coefficient is non-zero for :math:`a \ne 0`.
2. *A pole owned by one atom.* Atom :math:`j` (with :math:`a_j \ne 0`) has the poles
   :math:`-b_j/a_j + i\omega(2m+1)/a_j`, on the vertical line :math:`\Re x = -b_j/a_j`. Take
   :math:`j` with :math:`|a_j|` largest. An atom :math:`i` sharing one of its poles has
   :math:`b_i/a_i = b_j/a_j` and :math:`a_i/a_j = p/q` with :math:`p, q` odd, :math:`|p| \le q`
   (lowest terms); :math:`q = 1` means :math:`\eta_i = \pm\eta_j`, excluded, so :math:`q \ge 3`
   and the shared poles have :math:`q \mid 2m+1`. The poles with :math:`2m + 1 \equiv 1`
   modulo every such :math:`q` (infinitely many) are poles of atom :math:`j` only, and none is
   a pole of the multipliers (those are real).
3. *Principal parts.* Write the combination's atom-:math:`j` part as
   :math:`\sum_s G_s(x)\varphi^{(s)}(a_j x + b_j)` with rational :math:`G_s`. If :math:`S` is
   the largest :math:`s` with :math:`G_S \not\equiv 0`, the coefficient of
   :math:`w^{-S-1}` at an owned pole :math:`x^*` is :math:`G_S(x^*)(-1)^S S!\rho a_j^{-S-1}`;
   choosing one of the infinitely many owned poles where :math:`G_S \ne 0` contradicts
   vanishing. So every :math:`G_s \equiv 0`, on both half-lines.
4. *Per-order multipliers.* :math:`G_s \equiv 0` on both half-lines forces the atom's
   coefficients of order :math:`s` to vanish iff the multipliers :math:`\{u^\nu x^l\}` of order
   :math:`s`, taken on :math:`x>0` and :math:`x<0` together, are linearly independent: an exact
   rank computation over :math:`\mathbb Q(\tau_2)` that does not involve the atoms. Remove atom
   :math:`j` and repeat (induction on :math:`k`).

If the multipliers of some order are dependent, the null vector gives a dependence at
**every** atom (and every activation). The exceptional set is named and checked exactly:
:math:`\eta_i = -\eta_j` (:math:`\varphi - \varphi(0)` is odd, so
:math:`\varphi^{(s)}(-z) = (-1)^{s+1}\varphi^{(s)}(z)` for :math:`s \ge 1`) and :math:`a_j = 0`
(the atom's terms are rational functions times constants :math:`\varphi^{(s)}(b_j)`).

References
----------
.. [1] H. Nguyen, N. Ho, A. Rinaldo, "On Least Square Estimation in Softmax Gating Mixture of
   Experts", ICML, 2024, arXiv:2402.02952.

Examples
--------
>>> dec = decide_ridge_all_atoms("tanh", "pcos-2")
>>> dec.verdict.value, dec.scope()["k"]
('proved', 'every k >= 1')
>>> decide_ridge_all_atoms("sigmoid", "linear-2").verdict.value
'refuted'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from moetheory.engine.verdicts import Verdict
from moetheory.symbolic.identifiability import IdentifiabilityReading, _reading

__all__ = [
    "ACTIVATIONS",
    "MeromorphicActivation",
    "PoleCertificate",
    "RidgeAllAtomsDecision",
    "decide_ridge_all_atoms",
    "order_multipliers",
    "pole_certificate",
]

_Z = sp.Symbol("z")
_X = sp.Symbol("x", real=True)
_TAU2 = sp.Symbol("tau2", positive=True)


@dataclass(frozen=True)
class MeromorphicActivation:
    r"""An activation :math:`\varphi` whose poles form one arithmetic progression.

    Parameters
    ----------
    name : str
        ``"tanh"`` or ``"sigmoid"`` for the ready-made ones.
    phi : callable
        :math:`z \mapsto \varphi(z)` on SymPy expressions.
    first_pole : sympy.Expr
        :math:`z_0 = i\omega` (purely imaginary).
    period : sympy.Expr
        :math:`T = 2 i\omega`: the poles claimed are :math:`z_0 + mT`, :math:`m \in \mathbb Z`.

    Notes
    -----
    The claimed pole set :math:`\{z_0 + mT : m \in \mathbb Z\}` is verified by
    :func:`pole_certificate`, never assumed.

    See Also
    --------
    pole_certificate : the exact pole facts.
    decide_ridge_all_atoms : the decision that uses them.

    Examples
    --------
    >>> ACTIVATIONS["tanh"].phi(sp.Symbol("z"))
    tanh(z)
    """

    name: str
    phi: Callable[[sp.Expr], sp.Expr]
    first_pole: sp.Expr
    period: sp.Expr


#: The activations with a pole certificate: tanh (poles :math:`i\pi(m + 1/2)`) and the
#: logistic sigmoid (poles :math:`i\pi(2m + 1)`).
ACTIVATIONS: dict[str, MeromorphicActivation] = {
    "tanh": MeromorphicActivation("tanh", sp.tanh, sp.I * sp.pi / 2, sp.I * sp.pi),
    "sigmoid": MeromorphicActivation("sigmoid", lambda z: 1 / (1 + sp.exp(-z)),
                                     sp.I * sp.pi, 2 * sp.I * sp.pi),
}


@dataclass(frozen=True)
class PoleCertificate:
    r"""Exact facts about the poles of :math:`\varphi = N/D` used by the singularity route.

    Parameters
    ----------
    numerator, denominator : sympy.Expr
        :math:`N, D` (exponential form).
    zeros_of_denominator : str
        SymPy's ``solveset`` of :math:`D = 0` over :math:`\mathbb C`.
    matches_progression : bool
        Whether that set is exactly :math:`\{z_0 + mT\}`.
    periodic : bool
        :math:`N(z+T) = N(z)` and :math:`D(z+T) = D(z)` identically.
    residue : sympy.Expr
        :math:`\rho = N(z_0)/D'(z_0)` (the same at every pole by periodicity).
    leading : list of sympy.Expr
        :math:`(-1)^s s!\rho/a^{s+1}`, the coefficient of :math:`w^{-s-1}` in
        :math:`\varphi^{(s)}(z_0 + a w)`, for :math:`s = 0, 1, \dots`.
    symmetric : bool
        :math:`\varphi(z) + \varphi(-z)` is constant (so :math:`\varphi - \varphi(0)` is odd).
    derivative_positive : bool
        :math:`\varphi'` has no real zero (:math:`\operatorname{sech}^2`, :math:`\sigma(1-\sigma)`).

    Notes
    -----
    A simple pole with residue :math:`\rho` gives :math:`\varphi^{(s)}(z_0 + aw) =
    (-1)^s s!\,\rho\,(aw)^{-s-1} + O(w^{-s})`; ``leading`` lists these coefficients.

    See Also
    --------
    pole_certificate : computes it.

    Examples
    --------
    >>> pole_certificate("tanh").residue
    1
    """

    numerator: sp.Expr
    denominator: sp.Expr
    zeros_of_denominator: str
    matches_progression: bool
    periodic: bool
    residue: sp.Expr
    leading: list[sp.Expr]
    symmetric: bool
    derivative_positive: bool

    @property
    def valid(self) -> bool:
        """Whether every fact the argument needs was shown (simple poles, non-zero residue)."""
        return (self.matches_progression and self.periodic and self.residue != 0
                and self.symmetric and self.derivative_positive)

    def evidence(self) -> dict[str, Any]:
        """JSON-able form.

        Returns
        -------
        dict
            Every field as SymPy text.
        """
        return {"numerator": sp.sstr(self.numerator), "denominator": sp.sstr(self.denominator),
                "zeros_of_denominator": self.zeros_of_denominator,
                "matches_progression": self.matches_progression, "periodic": self.periodic,
                "residue": sp.sstr(self.residue),
                "leading_laurent_coefficients": [sp.sstr(c) for c in self.leading],
                "phi(z) + phi(-z) constant": self.symmetric,
                "phi' has no real zero": self.derivative_positive}


_A = sp.Symbol("a", real=True, nonzero=True)


@functools.cache
def pole_certificate(activation: str, max_order: int = 3) -> PoleCertificate:
    r"""Compute and check the pole facts of a ready-made activation.

    Parameters
    ----------
    activation : {"tanh", "sigmoid"}
        A key of :data:`ACTIVATIONS`.
    max_order : int
        Leading Laurent coefficients for :math:`s = 0..` ``max_order`` (0 to 3).

    Returns
    -------
    PoleCertificate
        The facts, each computed exactly by SymPy.

    Raises
    ------
    ValueError
        On an unknown activation or ``max_order`` outside [0, 3].

    Notes
    -----
    With :math:`\varphi = N/D`, :math:`D` having only simple zeros :math:`z_0 + mT` and
    :math:`N(z_0) \ne 0`, the Laurent series at each pole starts with
    :math:`\rho/(z - z_0)`, :math:`\rho = N(z_0)/D'(z_0)`; differentiating :math:`s` times gives
    the leading term :math:`(-1)^s s!\rho (z-z_0)^{-s-1}`, and :math:`z - z_0 = a w`.

    Examples
    --------
    >>> c = pole_certificate("sigmoid", 2)
    >>> c.valid, c.residue, c.leading
    (True, 1, [1/a, -1/a**2, 2/a**3])
    """
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    if isinstance(max_order, bool) or not isinstance(max_order, int) or not 0 <= max_order <= 3:
        raise ValueError(f"max_order must be an integer in [0, 3], got {max_order!r}")
    act = ACTIVATIONS[activation]
    z0, period = act.first_pole, act.period
    phi = act.phi(_Z)
    num, den = sp.fraction(sp.together(phi.rewrite(sp.exp)))
    num, den = sp.expand(num), sp.expand(den)
    zeros = sp.solveset(den, _Z, sp.S.Complexes)
    matches = False
    if isinstance(zeros, sp.ImageSet) and zeros.base_sets == (sp.S.Integers,):
        lam = zeros.lamda
        n = lam.variables[0]
        diff = sp.expand(lam.expr - (z0 + n * period))
        # the same progression, possibly re-indexed by n -> -n - 1 or shifted by whole periods
        matches = diff == 0 or sp.expand(lam.expr.subs(n, -n - 1) - (z0 + n * period)) == 0 \
            or (sp.simplify(diff / period).is_integer is True)
    periodic = (sp.expand(num.subs(_Z, _Z + period) - num) == 0
                and sp.expand(den.subs(_Z, _Z + period) - den) == 0)
    residue = sp.simplify(num.subs(_Z, z0) / sp.diff(den, _Z).subs(_Z, z0))
    leading = [sp.Integer(-1) ** s * sp.factorial(s) * residue / _A ** (s + 1)
               for s in range(max_order + 1)]
    symmetric = sp.diff(sp.simplify((phi + phi.subs(_Z, -_Z)).rewrite(sp.exp)), _Z) == 0 or \
        sp.simplify(sp.diff(phi + phi.subs(_Z, -_Z), _Z)) == 0
    dphi = sp.diff(phi, _Z)
    zr = sp.Symbol("zr", real=True)
    positive = bool(sp.simplify(dphi.subs(_Z, zr).rewrite(sp.exp)).is_positive)
    return PoleCertificate(num, den, sp.sstr(zeros), bool(matches), periodic, residue, leading,
                           bool(symmetric), positive)


def order_multipliers(reading: IdentifiabilityReading, s: int,
                      side: int) -> list[tuple[int, int, sp.Expr]]:
    r"""The rational multipliers of order ``s`` of one atom on one half-line.

    Parameters
    ----------
    reading : IdentifiabilityReading
        Router ``"perturbed-cosine"``, ``"linear"`` or ``"none"``.
    s : int
        The derivative order :math:`|\gamma|` of :math:`\varphi`.
    side : {1, -1}
        :math:`x > 0` or :math:`x < 0`.

    Returns
    -------
    list of (nu, l, multiplier)
        One entry per family term :math:`m^\nu x^l \varphi^{(s)}`, :math:`\nu + s` in the
        reading's order range, :math:`0 \le l \le s` (list semantics: repeats kept; set
        semantics: exact repeats dropped -- with :math:`a \ne 0` no term vanishes and two
        terms coincide only when their multipliers and orders do).

    Raises
    ------
    ValueError
        On ``side`` not ±1.

    Notes
    -----
    :math:`\partial_a^l\partial_b^{s-l}\varphi(ax+b) = x^l\varphi^{(s)}(ax+b)`, and the router
    contributes :math:`u^\nu` with :math:`u = x/(\pm x + \tau_2)` on :math:`\pm x > 0`.

    See Also
    --------
    decide_ridge_all_atoms : uses their rank on both half-lines.

    Examples
    --------
    >>> from moetheory.symbolic.identifiability import READINGS
    >>> order_multipliers(READINGS["pcos-2"], 1, 1)
    [(0, 0, 1), (0, 1, x), (1, 0, x/(tau2 + x)), (1, 1, x**2/(tau2 + x))]
    """
    if side not in (1, -1):
        raise ValueError(f"side must be 1 or -1, got {side!r}")
    if reading.router == "perturbed-cosine":
        m = _X / (side * _X + _TAU2)
    elif reading.router == "linear":
        m = _X
    else:
        m = sp.Integer(0)
    out: list[tuple[int, int, sp.Expr]] = []
    max_nu = reading.max_order - s if reading.router != "none" else 0
    for nu in range(max(max_nu, 0) + 1):
        if not reading.min_order <= nu + s <= reading.max_order:
            continue
        for l_ in range(s + 1):
            term = sp.cancel(m**nu * _X**l_) if nu else _X**l_
            if reading.semantics == "set" and any(sp.cancel(term - t) == 0 for *_, t in out):
                continue  # an exact repeat (the same function for every atom with a != 0)
            out.append((nu, l_, term))
    return out


@functools.cache
def _order_rank(reading: IdentifiabilityReading, s: int) -> dict[str, Any]:
    """Exact rank of the order-``s`` multipliers on both half-lines over Q(tau2)."""
    terms = order_multipliers(reading, s, 1)
    if not terms:
        return {"s": s, "terms": 0, "rank": 0, "independent": True, "null_vector": None}
    rows = []
    for side in (1, -1):
        cleared = [sp.cancel(t * (side * _X + _TAU2) ** reading.max_order)
                   for _, _, t in order_multipliers(reading, s, side)]
        polys = [sp.Poly(c, _X) for c in cleared]
        deg = max(p.degree() for p in polys)
        rows.append([[p.coeff_monomial(_X**i) for i in range(deg + 1)] for p in polys])
    mat = sp.Matrix([r1 + r2 for r1, r2 in zip(*rows, strict=True)])
    field_ = sp.QQ.frac_field(_TAU2)
    dm = DomainMatrix.from_Matrix(mat).convert_to(field_)
    rank = dm.rank()
    sym = "x" if reading.router == "linear" else "u"
    out: dict[str, Any] = {"s": s, "terms": [f"{sym}^{nu} x^{l_}" for nu, l_, _ in terms],
                           "rank": rank, "independent": rank == len(terms), "null_vector": None}
    if rank < len(terms):
        ns = dm.transpose().nullspace().to_Matrix()
        lead = next(v for v in ns.row(0) if v != 0)
        vec = [sp.factor(sp.cancel(v / lead)) for v in ns.row(0)]
        out["null_vector"] = vec
        out["identity"] = {
            "+": sp.sstr(sp.cancel(sum(c * t for c, (_, _, t) in
                                       zip(vec, order_multipliers(reading, s, 1), strict=True)))),
            "-": sp.sstr(sp.cancel(sum(c * t for c, (_, _, t) in
                                       zip(vec, order_multipliers(reading, s, -1),
                                           strict=True))))}
    else:
        ring = sp.QQ[_TAU2]
        _, pivots = dm.rref()
        minor = DomainMatrix.from_Matrix(mat.extract(list(range(len(terms))), list(pivots)))
        det = minor.convert_to(ring).det()
        out["minor"] = sp.sstr(sp.factor(ring.to_sympy(det)))
        # positive roots of the minor would be exceptional tau2 values
        out["minor_positive_roots"] = [sp.sstr(r) for r in
                                       sp.Poly(ring.to_sympy(det), _TAU2).real_roots() if r > 0]
    return out


@dataclass
class RidgeAllAtomsDecision:
    r"""A reading decided for every k and all atoms by the singularity route.

    Parameters
    ----------
    activation : str
    reading : IdentifiabilityReading
    verdict : Verdict
        ``PROVED``: independent at every tuple of pairwise distinct atoms outside the
        exceptional set; ``REFUTED``: dependent at every atom tuple; ``INCONCLUSIVE``: the
        route does not apply.
    poles : PoleCertificate or None
    orders : list of dict
        Per order :math:`s`: the multipliers, their exact rank over :math:`\mathbb Q(\tau_2)`
        on both half-lines and a non-zero minor (or the null vector).
    exceptions : list of dict
        The named exceptional sets with their exact dependences.
    reason : str
        Why the verdict was reached.

    Notes
    -----
    The scope (:meth:`scope`) is :math:`d = 1`, every :math:`k`, every :math:`\tau_2 > 0`, and
    all pairwise distinct atoms outside :math:`\{a_j = 0\} \cup \{\eta_i = -\eta_j\}` for a
    proof, every atom tuple for a refutation.

    See Also
    --------
    decide_ridge_all_atoms : builds it.
    moetheory.symbolic.identifiability.AllAtomsDecision : the exact-elimination analogue for
    polynomial
        experts.

    Examples
    --------
    >>> decide_ridge_all_atoms("tanh", "eta-only-2").exceptional_set
    'a_j = 0 for some j, or eta_i = -eta_j for some i != j'
    """

    activation: str
    reading: IdentifiabilityReading
    verdict: Verdict
    poles: PoleCertificate | None = None
    orders: list[dict[str, Any]] = field(default_factory=list)
    exceptions: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""

    exceptional_set: ClassVar[str] = "a_j = 0 for some j, or eta_i = -eta_j for some i != j"
    #: :attr:`exceptional_set` as MyST (its maths in ``$...$``).
    exceptional_set_latex: ClassVar[str] = (r"$a_j = 0$ for some $j$, or $\eta_i = -\eta_j$ "
                                            r"for some $i \ne j$")

    def scope(self) -> dict[str, Any]:
        """What the verdict covers, as structured data.

        Returns
        -------
        dict
            ``d``, ``k``, ``atoms``, ``tau2``, ``orders``, ``semantics``.
        """
        atoms = {Verdict.PROVED: "all pairwise distinct atoms outside the exceptional set ("
                                 + self.exceptional_set + ")",
                 Verdict.REFUTED: "every atom tuple"}.get(self.verdict, "none")
        return {"d": 1, "k": "every k >= 1", "atoms": atoms, "tau2": "every tau2 > 0",
                "orders": [self.reading.min_order, self.reading.max_order],
                "semantics": self.reading.semantics,
                "route": "singularity (poles of phi owned by one atom)"}

    @property
    def summary(self) -> str:
        """One line: the verdict with its scope in words."""
        if self.verdict is Verdict.PROVED:
            return (f"independent for EVERY k and ALL pairwise distinct atoms outside the "
                    f"exceptional set ({self.exceptional_set}), d = 1, every tau2 > 0: pole "
                    f"argument, residue {sp.sstr(self.poles.residue if self.poles else 0)}, "
                    "per-order multipliers independent on both half-lines; exact "
                    "dependences on " + (", ".join(e["set"] for e in self.exceptions
                                                  if e["holds"]) or "no exceptional set"))
        if self.verdict is Verdict.REFUTED:
            bad = next(o for o in self.orders if not o["independent"])
            return (f"dependent for EVERY atom tuple (d = 1): the order-{bad['s']} multipliers "
                    f"{bad['terms']} satisfy {[sp.sstr(c) for c in bad['null_vector']]} on "
                    "both half-lines")
        return f"not decided for all atoms: {self.reason}"

    @property
    def summary_latex(self) -> str:
        """:attr:`summary` as MyST, its maths typeset from the decision's data."""
        if self.verdict is Verdict.PROVED:
            held = ", ".join(e["set_latex"] for e in self.exceptions if e["holds"])
            residue = sp.latex(self.poles.residue if self.poles else 0)
            return (f"independent for EVERY $k$ and ALL pairwise distinct atoms outside the "
                    f"exceptional set ({self.exceptional_set_latex}), $d = 1$, every "
                    f"$\\tau_2 > 0$: pole argument, residue ${residue}$, per-order multipliers "
                    f"independent on both half-lines; exact dependences on "
                    f"{held or 'no exceptional set'}")
        if self.verdict is Verdict.REFUTED:
            bad = next(o for o in self.orders if not o["independent"])
            return (f"dependent for EVERY atom tuple ($d = 1$): the order-{bad['s']} "
                    f"multipliers {_latex_list(bad['terms'])} satisfy the null vector "
                    f"${_vector_latex(bad['null_vector'])}$ on both half-lines")
        return f"not decided for all atoms: {self.reason}"

    def scope_latex(self) -> dict[str, str]:
        """The ``k`` and ``atoms`` of :meth:`scope` as MyST (maths in ``$...$``)."""
        atoms = {Verdict.PROVED: "all pairwise distinct atoms outside the exceptional set ("
                                 + self.exceptional_set_latex + ")",
                 Verdict.REFUTED: "every atom tuple"}.get(self.verdict, "none")
        return {"k": "every $k \\ge 1$", "atoms": atoms}

    def evidence(self) -> dict[str, Any]:
        """JSON-able certificate.

        Returns
        -------
        dict
            Reading, scope, pole facts, per-order ranks, exceptional dependences.
        """
        return {
            "reading": self.reading.statement(),
            "scope": self.scope(),
            "method": "singularity route: a vanishing combination is meromorphic on C; at a "
                      "pole owned by the atom with the largest |a| the principal part, order "
                      "by order, forces the per-order rational combinations to vanish; those "
                      "are independent (exact rank over Q(tau2)); induction on k",
            "poles": self.poles.evidence() if self.poles else None,
            "orders": [{k: (sp.sstr(v) if isinstance(v, sp.Basic) else
                            [sp.sstr(c) for c in v] if k == "null_vector" and v else v)
                        for k, v in o.items()} for o in self.orders],
            "exceptions": self.exceptions,
            "reason": self.reason,
        }

    def derivation(self) -> str:
        """MyST derivation: the argument with the machine-checked facts filled in.

        Returns
        -------
        str
            Markdown with ``$...$`` mathematics.
        """
        p = self.poles
        lines = [f"**All atoms, every $k$, $d = 1$ (singularity route), reading "
                 f"`{self.reading.name}`, $\\varphi = $ {self.activation}.**", ""]
        if p is not None:
            lead = ", ".join(f"${sp.latex(c)}$" for c in p.leading)
            lines += [
                f"1. $\\varphi = N/D$ with $N = {sp.latex(p.numerator)}$, "
                f"$D = {sp.latex(p.denominator)}$; SymPy: the zeros of $D$ are "
                f"`{p.zeros_of_denominator}` (all simple, $N$ and $D$ periodic: "
                f"{p.periodic}), residue $\\rho = {sp.latex(p.residue)}$. Leading Laurent "
                f"coefficients of $\\varphi^{{(s)}}(z_0 + a w)$, $s = 0, 1, \\dots$: {lead} "
                "(non-zero for $a \\ne 0$).",
                "2. The atom with the largest $|a_j|$ owns infinitely many poles "
                "$-b_j/a_j + i\\omega(2m+1)/a_j$ (another atom shares one only if "
                "$b_i/a_i = b_j/a_j$ and $a_i/a_j = p/q$ with $p, q$ odd, and $q = 1$ means "
                "$\\eta_i = \\pm\\eta_j$).",
                "3. At an owned pole the coefficient of $w^{-S-1}$ of a vanishing combination is "
                "$G_S(x^*)\\,(-1)^S S!\\rho\\,a_j^{-S-1}$, so every per-order rational "
                "combination $G_s$ vanishes on both half-lines.",
            ]
        for o in self.orders:
            if o["terms"] == 0:
                continue
            state = (f"independent, non-zero minor ${sp.latex(sp.sympify(o['minor']))}$"
                     if o["independent"] else
                     f"dependent, null vector ${_vector_latex(o['null_vector'])}$")
            lines.append(f"   - order $s = {o['s']}$: multipliers "
                         f"{', '.join('$' + t + '$' for t in o['terms'])} on $x>0$ and $x<0$: "
                         f"rank {o['rank']} over $\\mathbb Q(\\tau_2)$, {state}.")
        for e in self.exceptions:
            lines.append(f"- Exceptional set {e['set_latex']}: {e['statement_latex']} "
                         f"(exact: {e['holds']}).")
        return "\n".join(lines)


def _latex_list(terms: list[str]) -> str:
    """LaTeX terms as a MyST list: ``$t_1$, $t_2$``."""
    return ", ".join(f"${t}$" for t in terms)


def _vector_latex(entries: Any) -> str:
    """A null vector (SymPy numbers or their text) as LaTeX: ``\\left(1, -1\\right)``."""
    return r"\left(" + ", ".join(sp.latex(sp.sympify(c)) for c in entries) + r"\right)"


def _exceptions(activation: str, reading: IdentifiabilityReading) -> list[dict[str, Any]]:
    """Exact dependences on the named exceptional sets."""
    act = ACTIVATIONS[activation]
    a, b, x = sp.symbols("a b x", real=True)
    phi = act.phi(a * x + b)
    out = []
    # eta_2 = -eta_1: the first-order b-derivatives coincide (phi' is even)
    if reading.atoms >= 2 and reading.min_order <= 1 <= reading.max_order:
        d_b = sp.diff(phi, b)
        flipped = d_b.subs({a: -a, b: -b}, simultaneous=True)
        holds = sp.simplify((d_b - flipped).rewrite(sp.exp)) == 0
        out.append({"set": "eta_i = -eta_j", "holds": bool(holds),
                    "statement": "dh/db(x, eta) - dh/db(x, -eta) = 0 for every eta "
                                 "(phi' is even), a dependence between the two atoms",
                    "set_latex": r"$\eta_i = -\eta_j$",
                    "statement_latex": r"$\partial_b h(x, \eta) - \partial_b h(x, -\eta) = 0$ "
                                       r"for every $\eta$ ($\varphi'$ is even), a dependence "
                                       "between the two atoms"})
    # a_j = 0: h and dh/db are both constants
    if reading.min_order == 0 and reading.max_order >= 1:
        h0, hb0 = phi.subs(a, 0), sp.diff(phi, b).subs(a, 0)
        holds = (not hb0.has(x) and not h0.has(x)
                 and pole_certificate(activation).derivative_positive)
        out.append({"set": "a_j = 0", "holds": bool(holds),
                    "statement": "at a = 0, h = phi(b) and dh/db = phi'(b) are constants with "
                                 "phi'(b) != 0: phi'(b) h - phi(b) dh/db = 0",
                    "set_latex": "$a_j = 0$",
                    "statement_latex": r"at $a = 0$, $h = \varphi(b)$ and "
                                       r"$\partial_b h = \varphi'(b)$ are constants with "
                                       r"$\varphi'(b) \ne 0$: "
                                       r"$\varphi'(b)\, h - \varphi(b)\, \partial_b h = 0$"})
    elif reading.max_order >= 1:
        out.append({"set": "a_j = 0", "holds": False,
                    "statement": "not shown to be exceptional for this reading (it is "
                                 "excluded from the proof's scope)",
                    "set_latex": "$a_j = 0$",
                    "statement_latex": "not shown to be exceptional for this reading (it is "
                                       "excluded from the proof's scope)"})
    return out


def decide_ridge_all_atoms(activation: str,
                           reading: str | IdentifiabilityReading = "pcos-2"
                           ) -> RidgeAllAtomsDecision:
    r"""Decide a reading for ``φ(a x + b)`` at every k and all atoms (singularity route).

    Parameters
    ----------
    activation : {"tanh", "sigmoid"}
        The activation :math:`\varphi` (a key of :data:`ACTIVATIONS`).
    reading : str or IdentifiabilityReading
        A key of :data:`~moetheory.symbolic.identifiability.READINGS` or a custom reading (its
        ``atoms``
        only matters for the exceptional set: the verdict covers every k).

    Returns
    -------
    RidgeAllAtomsDecision
        ``PROVED`` (independent for all distinct atoms outside :math:`\{a_j = 0\} \cup
        \{\eta_i = -\eta_j\}`, every :math:`k`, :math:`d = 1`, every :math:`\tau_2 > 0`),
        ``REFUTED``
        (dependent at every atom tuple) or ``INCONCLUSIVE``.

    Raises
    ------
    ValueError
        On an unknown activation or reading.

    Notes
    -----
    See the module docstring for the argument; the family term
    :math:`\partial_a^l\partial_b^{s-l}\varphi(ax+b) = x^l\varphi^{(s)}(ax+b)` reduces the
    question to the pole facts (:func:`pole_certificate`) and, order by order, to the rank of
    the multipliers :math:`u^\nu x^l` (:func:`order_multipliers`) over
    :math:`\mathbb Q(\tau_2)` on both half-lines.

    See Also
    --------
    moetheory.symbolic.identifiability.decide : the decision at explicit atoms.
    moetheory.symbolic.identifiability.search_exceptions : the symmetry orbits at explicit atoms.

    Examples
    --------
    >>> d = decide_ridge_all_atoms("sigmoid", "pcos-1-no-order0")
    >>> d.verdict.value, [o["rank"] for o in d.orders]
    ('proved', [1, 2])
    """
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    reading = _reading(reading)
    out = RidgeAllAtomsDecision(activation, reading, Verdict.INCONCLUSIVE)
    out.orders = [dict(_order_rank(reading, s)) for s in range(reading.max_order + 1)]
    if not all(o["independent"] for o in out.orders):
        out.verdict = Verdict.REFUTED
        out.reason = "a per-order multiplier family is dependent: a dependence at every atom"
        return out
    out.poles = pole_certificate(activation, reading.max_order)
    if not out.poles.valid:
        out.reason = "the pole facts were not all shown"
        return out
    if any(o.get("minor_positive_roots") for o in out.orders):
        out.reason = "a per-order minor vanishes at some tau2 > 0"
        return out
    out.exceptions = _exceptions(activation, reading)
    out.verdict = Verdict.PROVED
    out.reason = "pole argument + per-order multiplier independence"
    return out

