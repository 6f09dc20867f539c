r"""Does :math:`\beta_1^\top \partial H/\partial\beta_1 = 0` hold for *your* router?

The parameter interaction (4) of seed 002: with :math:`H(x, \beta_1, \eta) = e^{s(x, \beta_1)}
h(x, \eta)` and an arbitrary expert :math:`h` not depending on :math:`\beta_1`,

.. math:: \beta_1^\top \frac{\partial H}{\partial \beta_1}
          = \frac{d}{dc} H(x, c\beta_1, \eta)\Big|_{c=1}
          = H \cdot \frac{d}{dc} s(x, c\beta_1)\Big|_{c=1},

so (4) holds identically exactly when the score is scale invariant in :math:`\beta_1`.
:func:`router_pde` decides it for a score given as a Python callable ``score(beta1, x)`` on
SymPy column vectors, with a verdict, the residual in closed form, the set where it vanishes,
the dimensions covered and a certificate cross-checked with mpmath.

Examples
--------
>>> import sympy as sp
>>> tau = sp.Symbol("tau", positive=True)
>>> res = router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm() + tau))
>>> res.verdict.value, res.scope
('refuted', {'d': 'all'})
>>> res.residual_over_H, res.vanishing
(tau*u/(n_b*n_x + tau)**2, Eq(u, 0) | Eq(h(x, eta), 0))
>>> res.counterexample["beta1"], res.counterexample["x"], res.counterexample["residual_over_H"]
(['1', '0'], ['1', '0'], 2/9)
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.engine.verdicts import Outcome, Verdict, jsonable
from moetheory.symbolic._docs import REFERENCES
from moetheory.symbolic.pde import expert
from moetheory.symbolic.router_pde._deadline import Deadline, TimeUp, time_limit
from moetheory.symbolic.router_pde._decide import (
    Decision,
    Progress,
    ScoreCalls,
    decide,
)
from moetheory.symbolic.router_pde._pieces import Piece, Refusal
from moetheory.symbolic.router_pde._render import derivation, latex_display, markdown, summary
from moetheory.symbolic.routers import NB, NX, U  # noqa: F401 (the doctests' names)

__all__ = ["MAX_DIM", "MAX_TIMEOUT", "READING", "READING_LATEX", "RouterPDEPiece",
           "RouterPDEResult", "router_pde"]

#: Largest dimension of the fixed-dimension route (explicit coordinates).
MAX_DIM = 6
#: Largest time limit, in seconds.
MAX_TIMEOUT = 3600.0
#: The statement :func:`router_pde` decides, in words.
READING = ("beta1^T dH/dbeta1 = 0 identically, for every expert h(x, eta), on beta1 != 0, "
           "x != 0 and the interior of each smooth piece of the score, hyper-parameters as "
           "declared (the derivative taken in every coordinate of beta1)")
#: :data:`READING` as MyST, its maths in ``$...$`` (the notebook display shows it).
READING_LATEX = (r"$\beta_1^\top \partial H/\partial\beta_1 = 0$ identically, for every "
                 r"expert $h(x, \eta)$, on $\beta_1 \ne 0$, $x \ne 0$ and the interior of each "
                 "smooth piece of the score, hyper-parameters as declared (the derivative taken "
                 r"in every coordinate of $\beta_1$)")


@dataclass(frozen=True)
class RouterPDEPiece:
    r"""One smooth piece of the score and the residual on it.

    Parameters
    ----------
    region : sympy.Basic
        The region (a SymPy condition; ``True`` for a smooth score) whose interior the piece
        covers.
    score : sympy.Expr
        The score on the piece.
    residual_over_H : sympy.Expr
        :math:`\frac{d}{dc} s(x, c\beta_1)|_{c=1}` on the interior of the region.
    zero : bool
        Whether it was shown to be identically 0 there.

    See Also
    --------
    RouterPDEResult : holds the pieces.

    Notes
    -----
    On the boundary of a region the score may not be differentiable; the pieces say nothing
    there (a set of measure zero).

    Examples
    --------
    >>> import sympy as sp
    >>> p = RouterPDEPiece(sp.true, U / NB, sp.Integer(0), True)
    >>> p.to_dict()["zero"]
    True
    """

    region: Any
    score: sp.Expr
    residual_over_H: sp.Expr
    zero: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form.

        Returns
        -------
        dict
            ``region``, ``score``, ``residual_over_H`` (SymPy text and LaTeX) and ``zero``.

        Examples
        --------
        >>> sorted(RouterPDEPiece(sp.true, U, U, False).to_dict())
        ['region', 'residual_over_H', 'score', 'zero']
        """
        return jsonable({"region": self.region, "score": self.score,
                         "residual_over_H": self.residual_over_H, "zero": self.zero})


@dataclass(frozen=True)
@fill_doc(REFERENCES)
class RouterPDEResult:
    r"""The answer of :func:`router_pde`: verdict, residual, where it vanishes, scope, certificate.

    Parameters
    ----------
    verdict : Verdict
        ``proved`` (:math:`\beta_1^\top\partial H/\partial\beta_1 \equiv 0` on the domain),
        ``refuted`` (not identically 0: :attr:`counterexample` holds a point) or
        ``inconclusive`` (:attr:`reason` says why).
    reason : str
        One sentence: the finding, or why it is inconclusive.
    scope : dict
        The dimensions the verdict covers, exactly: under ``"d"``, ``"all"`` (every
        :math:`d \ge 1`), ``">= 2"`` (every :math:`d \ge 2`, through the invariant form) or a
        list such as ``[1, 2, 3]`` (dimensions decided one by one). For ``refuted`` these are
        the refuted dimensions, and the dimensions where the residual was *proved* to vanish
        identically are beside them under ``"proved"`` (e.g.
        ``{"d": ">= 2", "proved": [1]}``); ``{"d": []}`` when inconclusive.
    score : sympy.Expr or None
        The score as a function :math:`F(u, n_b, n_x)` of :math:`u = \beta_1^\top x`,
        :math:`n_b = \|\beta_1\|`, :math:`n_x = \|x\|` (symbols
        :data:`~moetheory.symbolic.routers.U`, ``NB``, ``NX``); in coordinates of the
        dimension shown when the score is not such a function; None if not reached.
    residual : sympy.Expr or None
        :math:`\beta_1^\top\partial H/\partial\beta_1` in closed form,
        ``residual_over_H * exp(score) * h(x, eta)``.
    residual_over_H : sympy.Expr or None
        :math:`\frac{d}{dc} s(x, c\beta_1)|_{c=1}`, a ``Piecewise`` for a piecewise score;
        :math:`d = 1` is always decided on its own, its residual is in
        :attr:`per_dimension`.
    vanishing : sympy.Basic or None
        The condition under which the residual is 0 (``True`` when proved), e.g.
        ``Eq(u, 0) | Eq(h(x, eta), 0)``; None when it cannot be stated.
    pieces : tuple of RouterPDEPiece
        The smooth pieces decided.
    counterexample : dict or None
        For ``refuted``: dimension, rational :math:`\beta_1`, :math:`x`, hyper-parameter
        values, the exact value of the residual over :math:`H` and 30 certified digits.
    per_dimension : dict
        Per dimension decided in coordinates: verdict, reason, residual over :math:`H`.
    certificate : dict
        What was proved and how: the reduction to invariants (or the coordinates), the
        derivative and how it cancels, the mpmath cross-check (points, dps, errors), the
        verdict of each part (``"verdicts"``) and the parts left undecided.
    differentiated : tuple of str
        The parameters differentiated: ``("beta1",)`` (all coordinates of :math:`\beta_1`,
        through the Euler operator :math:`\beta_1^\top\partial/\partial\beta_1`).
    reading : str
        The statement decided, in words (:data:`READING`).
    dimensions : dict
        The dimensions the certificate uses: ``"asked"``, ``"invariant_form"`` (where the
        score was certified to be the same :math:`F(u, n_b, n_x)`), ``"coordinates"``
        (decided in explicit coordinates) and ``"mpmath"`` (the cross-check's points).
    reading_latex : str
        :attr:`reading` as MyST, its maths in ``$...$`` (:data:`READING_LATEX`).

    See Also
    --------
    router_pde : computes it.
    moetheory.engine.verdicts.Outcome : what :meth:`to_outcome` returns.

    Notes
    -----
    The residual of eq. (4) of [1]_ is reported for :math:`\beta_1 \ne 0`, :math:`x \ne 0`
    and on the interior of each smooth piece of the score.

    %(references)s

    Examples
    --------
    >>> res = router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm()))
    >>> res.verdict.value, res.residual, res.vanishing
    ('proved', 0, True)
    """

    verdict: Verdict
    reason: str
    scope: Mapping[str, Any]
    score: sp.Expr | None = None
    residual: sp.Expr | None = None
    residual_over_H: sp.Expr | None = None
    vanishing: Any = None
    pieces: tuple[RouterPDEPiece, ...] = ()
    counterexample: Mapping[str, Any] | None = None
    per_dimension: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    certificate: Mapping[str, Any] = field(default_factory=dict)
    differentiated: tuple[str, ...] = ("beta1",)
    reading: str = READING
    dimensions: Mapping[str, list[int]] = field(default_factory=dict)
    reading_latex: str = READING_LATEX

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON data (formulas as SymPy text and LaTeX).

        Returns
        -------
        dict
            Every field, through :func:`~moetheory.engine.verdicts.jsonable`.

        See Also
        --------
        to_outcome : the catalogue's form.

        Examples
        --------
        >>> import json
        >>> d = router_pde(lambda b, x: b.dot(x)).to_dict()
        >>> d["verdict"], d["residual_over_H"]["sympy"], bool(json.dumps(d))
        ('refuted', 'u', True)
        """
        return jsonable({
            "verdict": self.verdict,
            "reason": self.reason,
            "scope": dict(self.scope),
            "score": self.score,
            "residual": self.residual,
            "residual_over_H": self.residual_over_H,
            "vanishing": self.vanishing,
            "pieces": [p.to_dict() for p in self.pieces],
            "counterexample": self.counterexample,
            "per_dimension": {d: _plain(v) for d, v in self.per_dimension.items()},
            "certificate": _plain(self.certificate),
            "differentiated": list(self.differentiated),
            "reading": self.reading,
            "dimensions": {k: list(v) for k, v in self.dimensions.items()},
        })

    def summary(self) -> str:
        """One line for a reader: verdict, residual, scope, counterexample.

        Returns
        -------
        str
            Formulas printed with :func:`sympy.sstr`.

        Examples
        --------
        >>> router_pde(lambda b, x: b.dot(x)).summary()[:52]
        'β1ᵀ∂H/∂β1 = u·H is not identically 0 (every d ≥ 1); '
        """
        return summary(self)

    def to_outcome(self) -> Outcome:
        """The catalogue's :class:`~moetheory.engine.verdicts.Outcome` of this result.

        Returns
        -------
        Outcome
            Same verdict; :meth:`summary` as summary; :meth:`to_dict` (less the verdict) as
            evidence; a worked derivation in MyST Markdown.

        See Also
        --------
        moetheory.claim : a check can ``return router_pde(...).to_outcome()``.

        Examples
        --------
        >>> router_pde(lambda b, x: b.dot(x)).to_outcome().verdict.value
        'refuted'
        """
        evidence = {k: v for k, v in self.to_dict().items() if k not in ("verdict", "reason")}
        evidence["reason"] = self.reason
        return Outcome(self.verdict, self.summary(), evidence, derivation=derivation(self))

    def _repr_markdown_(self) -> str:
        return markdown(self)

    def _repr_latex_(self) -> str:
        return latex_display(self)


def _plain(value: Any) -> Any:
    """Pieces inside mappings converted to dicts (the rest is left to ``jsonable``)."""
    if isinstance(value, Piece):
        return {"region": value.region, "score": value.score,
                "residual_over_H": value.ratio, "zero": value.zero}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------
# input checks
# ---------------------------------------------------------------------------------------------


def _check_dims(dims: Any) -> tuple[int, ...]:
    bad = ValueError(f"dims must be a non-empty sequence of distinct integers in 1..{MAX_DIM}, "
                     f"got {dims!r}")
    if isinstance(dims, str | bytes) or not isinstance(dims, Sequence | np.ndarray):
        raise bad
    out = []
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int | np.integer) or not 1 <= d <= MAX_DIM:
            raise bad
        out.append(int(d))
    if not out or len(set(out)) != len(out):
        raise bad
    return tuple(sorted(out))


def _check_timeout(timeout: Any) -> float:
    ok = (not isinstance(timeout, bool) and isinstance(timeout, numbers.Real)
          and math.isfinite(float(timeout)) and 0 < float(timeout) <= MAX_TIMEOUT)
    if not ok:
        raise ValueError(f"timeout must be a number of seconds in (0, {MAX_TIMEOUT:g}], "
                         f"got {timeout!r}")
    return float(timeout)


def _check_dps(dps: Any) -> int:
    if isinstance(dps, bool) or not isinstance(dps, int | np.integer) or not 30 <= dps <= 200:
        raise ValueError(f"dps must be an integer in 30..200, got {dps!r}")
    return int(dps)


def _as_score(raw: Any, d: int, coords: frozenset[sp.Symbol] = frozenset()) -> sp.Expr:
    """The callable's return value as a real scalar SymPy expression (or a one-line error);
    ``coords`` are the coordinate symbols the callable was given."""
    if isinstance(raw, sp.MatrixBase):
        if raw.shape != (1, 1):
            raise TypeError(f"score must return a scalar SymPy expression, got a "
                            f"{raw.shape[0]}x{raw.shape[1]} Matrix in d = {d}")
        raw = raw[0, 0]
    if isinstance(raw, complex | np.complexfloating):
        raise ValueError(f"score must be real-valued, got the complex number {raw!r}")
    if isinstance(raw, bool | np.bool_) or not isinstance(raw, sp.Expr | numbers.Real):
        raise TypeError(f"score must return a scalar SymPy expression, got "
                        f"{type(raw).__name__} in d = {d}")
    expr = sp.sympify(raw)
    if expr.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise ValueError(f"score must be finite; it contains nan or an infinity in d = {d}")
    if expr.has(sp.I) or any(n.is_extended_real is False for n in expr.atoms(sp.Number)):
        raise ValueError(f"score must be real-valued; it contains the imaginary unit in d = {d}")
    for s in sorted(expr.free_symbols - coords, key=sp.default_sort_key):
        if s.is_real is not True:
            raise ValueError(f"score's hyper-parameter {s.name} must be declared real, e.g. "
                             f"Symbol({s.name!r}, real=True) or positive=True")
    return expr


def _validate(calls: ScoreCalls, dims: Sequence[int]) -> None:
    """Every dimension used called once (bad return values raise here, before any work); at
    least one where the callable returns a score, else a TypeError."""
    used = sorted({1, 2, 3, 4, *dims})
    errors = [got for got in (calls.get(d) for d in used) if isinstance(got, Exception)]
    if len(errors) < len(used):
        return
    exc = errors[0]
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    raise TypeError(f"score(beta1, x) must accept two SymPy column vectors; it raised "
                    f"{type(exc).__name__}: {text} in every dimension tried "
                    f"(d = {', '.join(map(str, used))})")


# ---------------------------------------------------------------------------------------------
# the public function
# ---------------------------------------------------------------------------------------------


def _dimensions(asked: Sequence[int], decision: Decision | None) -> dict[str, list[int]]:
    """The dimensions the certificate uses (see :attr:`RouterPDEResult.dimensions`)."""
    out: dict[str, list[int]] = {"asked": list(asked)}
    if decision is None:
        return out
    reduction = decision.certificate.get("reduction")
    if reduction:
        out["invariant_form"] = list(reduction["dimensions_certified"])
    if decision.per_dimension:
        out["coordinates"] = sorted(decision.per_dimension)
    rows = decision.certificate.get("mpmath", {}).get("points", [])
    out["mpmath"] = sorted({row["d"] for row in rows})
    return out


def _result(decision: Decision, h: sp.Expr, calls: ScoreCalls,
            asked: Sequence[int]) -> RouterPDEResult:
    residual = None
    if decision.ratio is not None and decision.score is not None:
        residual = decision.ratio * sp.exp(decision.score) * h
    shown = calls.present
    pieces = tuple(RouterPDEPiece(shown(p.region), shown(p.score), shown(p.ratio), p.zero)
                   for p in decision.pieces)
    partial = RouterPDEResult(decision.verdict, decision.reason, dict(decision.scope),
                              shown(decision.score), shown(residual), shown(decision.ratio),
                              shown(decision.vanishing), pieces,
                              shown(decision.counterexample),
                              {d: shown({k: v for k, v in row.items() if k != "pieces"})
                               for d, row in decision.per_dimension.items()},
                              shown(decision.certificate),
                              dimensions=_dimensions(asked, decision))
    if decision.verdict == Verdict.INCONCLUSIVE:  # nothing decided: no scope claimed
        certificate = {**partial.certificate, "residual_valid_for": dict(decision.scope)}
        return dataclasses.replace(partial, scope={"d": []}, certificate=certificate)
    return dataclasses.replace(partial, reason=summary(partial))  # the finding, one sentence


def _inconclusive(reason: str, progress: Progress, h: sp.Expr,
                  calls: ScoreCalls, asked: Sequence[int]) -> RouterPDEResult:
    residual = None
    if progress.ratio is not None and progress.score is not None:
        residual = progress.ratio * sp.exp(progress.score) * h
    shown = calls.present
    return RouterPDEResult(Verdict.INCONCLUSIVE, reason, {"d": []}, shown(progress.score),
                           shown(residual), shown(progress.ratio), None, (), None, {},
                           {"stage": progress.stage, "notes": list(progress.notes)},
                           dimensions=_dimensions(asked, None))


@fill_doc(REFERENCES)
def router_pde(
    score: Callable[[sp.Matrix, sp.Matrix], Any],
    *,
    dims: Sequence[int] = (1, 2, 3),
    timeout: float = 60.0,
    dps: int = 40,
) -> RouterPDEResult:
    r"""Decide whether :math:`\beta_1^\top \partial H/\partial\beta_1 = 0` for a router score.

    Parameters
    ----------
    score : callable
        ``score(beta1, x)`` receives two SymPy column vectors (``sympy.Matrix`` of real
        symbols, the same dimension :math:`d`) and returns a scalar SymPy expression built
        from dot products (``beta1.dot(x)``), norms (``beta1.norm()``, ``sqrt``) and
        elementary functions; ``Abs``, ``sign``, ``Max``, ``Min``, ``Heaviside`` and
        ``Piecewise`` are split into smooth pieces. Any other free symbol is a
        hyper-parameter and must be declared real (e.g. ``Symbol("tau", positive=True)``).
    dims : sequence of int, optional
        The dimensions asked about: distinct integers in ``1..6``; default ``(1, 2, 3)``.
        Each is decided: ``d = 1`` always on its own, in coordinates; the asked
        :math:`d \ge 2` through the invariant form when the score is certified to be the same
        function of :math:`\beta_1^\top x, \|\beta_1\|, \|x\|` in each of them (and in
        :math:`d = 2, 3, 4`), which then covers every :math:`d \ge 2`; otherwise each one in
        coordinates. The user's symbols are never confused with the engine's (any name
        may be used, ``u``, ``n_b`` and ``b1`` included).
    timeout : float, optional
        Time limit in seconds, in ``(0, 3600]``; default 60. When it is reached the result is
        ``inconclusive`` with what was computed so far.
    dps : int, optional
        Decimal digits of the mpmath cross-check, in ``30..200``; default 40.

    Returns
    -------
    RouterPDEResult
        Verdict, residual in closed form, where it vanishes, scope in :math:`d`, the pieces,
        a counterexample when refuted, and the certificate.

    Raises
    ------
    TypeError
        If ``score`` is not callable, does not accept two SymPy column vectors, or does not
        return a scalar SymPy expression (a ``1 x 1`` Matrix is accepted).
    ValueError
        If ``dims``, ``timeout`` or ``dps`` is out of range, or the score is complex, not
        finite, or has a hyper-parameter not declared real, or two different symbols of the
        same name.

    See Also
    --------
    RouterPDEResult : the fields of the answer.
    moetheory.symbolic.pde.euler_residual : the same derivative for the catalogue's routers.

    Notes
    -----
    With :math:`H = e^{s} h` and :math:`h` not depending on :math:`\beta_1`,
    :math:`\beta_1^\top\partial H/\partial\beta_1 = H\,\frac{d}{dc}s(x, c\beta_1)|_{c=1}`
    (chain rule). Two routes:

    1. *Every dimension* :math:`d \ge 2`. The score, as the callable builds it in :math:`d = 2, 3,
       4`
       and in every asked :math:`d \ge 2`, is rewritten as one expression
       :math:`F(u, n_b, n_x)`: each sub-expression polynomial in the coordinates becomes a
       polynomial in :math:`u, n_b^2, n_x^2`, certified by expanding the difference to 0.
       Since :math:`(c\beta_1)^\top x = cu` and :math:`\|c\beta_1\| = c\,n_b`, the residual
       over :math:`H` is :math:`u F_u + n_b F_{n_b}`, in every :math:`d \ge 2` at once (there
       :math:`u, n_b, n_x` fill :math:`|u| \le n_b n_x`, a set with interior). The premise,
       stated in the certificate and the summary: the callable builds the same formula in
       every dimension.
    2. :math:`d = 1` is always decided on its own in coordinates (:math:`|u| = n_b n_x` there, so a
       residual of :math:`d \ge 2` may vanish in :math:`d = 1`, and a piece empty in
       :math:`d \ge 2` may be all of :math:`d = 1`).
    3. *Fixed dimensions.* When the score is not such a function (``x[0]`` alone, a
       dimension-dependent factor, a formula that changes with :math:`d`) each :math:`d` of
       ``dims`` is decided by :math:`\sum_i \beta_{1,i}\,\partial s/\partial\beta_{1,i}` in
       coordinates.

    The scope says exactly which dimensions the verdict covers: for ``refuted`` the refuted
    ones, with those proved beside them (``scope["proved"]``); never a dimension that was not
    decided. Where a piece's region is made of sign conditions on monomials of the
    coordinates, it is shown empty exactly (orthant by orthant) before it is left out.
    ``proved`` needs the derivative to cancel to exactly 0 on every piece with an interior;
    ``refuted`` needs a rational point (and rational hyper-parameters satisfying their
    assumptions) where its value is certified non-zero (30 digits, ``evalf`` with
    ``strict=True``). Each verdict is cross-checked against mpmath differentiation of the
    score itself, :math:`\frac{d}{dc}s(c\beta_1, x)`, at rational points in every
    dimension the certificate uses (every asked one, :math:`d = 1` on its own); a
    disagreement or a time-out gives ``inconclusive``. The domain is
    :math:`\beta_1 \ne 0`, :math:`x \ne 0`, the interiors of the smooth pieces. For the
    cosine router this is eq. (4) of [1]_.

    How far it decides: a refutation needs one exact point (an exact rational residual counts
    however small); a proof needs the derivative to cancel (``cancel``, a polynomial remainder
    modulo the squared norms, ``simplify``: identities such as
    :math:`\mathrm{softplus}(w) - \mathrm{softplus}(-w) = w` are found). It stays
    ``inconclusive`` when neither happens (an undefined function of :math:`u`, a residual
    that SymPy cannot cancel and that vanishes at every point tried, a piece with no rational
    point tried inside it), when SymPy cannot split a condition into pieces, or at the time
    limit. On the 40 routers of the slow property test (a grammar of norms, inner products,
    elementary functions, ``Abs``, ``Max``, ``Min``, ``Piecewise``, hyper-parameters and
    dimension-dependent terms, ``dims=(1, 2, 3)``) 39 were decided (25 proved, 14 refuted),
    each agreeing with an independent oracle, and one, with nested ``Max`` and ``Piecewise``,
    reached the 60 s time limit splitting its :math:`d = 1` pieces.

    %(references)s

    Examples
    --------
    >>> import sympy as sp
    >>> router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm())).verdict.value
    'proved'
    >>> res = router_pde(lambda b, x: b.dot(x))
    >>> res.verdict.value, res.residual_over_H, res.vanishing
    ('refuted', u, Eq(u, 0) | Eq(h(x, eta), 0))
    >>> res.counterexample["d"], res.counterexample["beta1"], res.counterexample["x"]
    (2, ['1', '0'], ['1', '0'])
    >>> res = router_pde(lambda b, x: b.dot(x) / b.norm() + x[0])
    >>> res.verdict.value, res.scope
    ('proved', {'d': [1, 2, 3]})
    >>> res = router_pde(lambda b, x: b.dot(x) / sp.Mul(*b))  # b1 x1 / b1 in d = 1
    >>> res.verdict.value, res.scope
    ('refuted', {'d': [2, 3], 'proved': [1]})
    >>> router_pde(lambda b, x: sp.sign(b.dot(x)) * b.dot(x) ** 2).verdict.value
    'refuted'
    """
    if not callable(score):
        raise TypeError(f"score must be a callable score(beta1, x), got {type(score).__name__}")
    dims_ = _check_dims(dims)
    seconds = _check_timeout(timeout)
    digits = _check_dps(dps)
    h = expert()
    calls = ScoreCalls(score, _as_score)
    progress = Progress()
    result: RouterPDEResult | None = None
    try:
        deadline = Deadline(seconds)
        with time_limit(seconds):
            _validate(calls, dims_)
            try:
                decision = decide(calls, dims_, digits, deadline, progress, h)
                result = _result(decision, h, calls, dims_)
            except Refusal as exc:
                result = _inconclusive(str(exc), progress, h, calls, dims_)
            except Exception as exc:  # SymPy or mpmath failing on an unusual score
                text = str(exc).splitlines()[0][:200] if str(exc) else ""
                result = _inconclusive(f"router_pde stopped while {progress.stage}: "
                                       f"{type(exc).__name__}: {text}", progress, h, calls, dims_)
    except TimeUp:
        if result is None:
            result = _inconclusive(f"the time limit of {seconds:g} s was reached while "
                                   f"{progress.stage}", progress, h, calls, dims_)
    assert result is not None
    return result
