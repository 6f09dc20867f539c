"""Text, Markdown and LaTeX of a :class:`~moetheory.symbolic.router_pde.RouterPDEResult`.

Every formula goes through a SymPy printer (:func:`sympy.sstr` for plain text,
:func:`sympy.latex` with the paper's symbol names for Markdown and LaTeX).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from moetheory.engine.verdicts import Verdict
from moetheory.symbolic.routers import SYMBOL_LATEX

__all__: list[str] = []

_LHS_TEXT = "β1ᵀ∂H/∂β1"
_PARAMETER_TEXT = {"beta1": "β1"}
_PARAMETER_TEX = {"beta1": r"\beta_1"}
_LHS_TEX = r"\beta_1^\top \frac{\partial H}{\partial \beta_1}"


def tex(expr: Any) -> str:
    """LaTeX with u, n_b, n_x shown as the inner product and the norms."""
    return sp.latex(sp.sympify(expr), symbol_names=SYMBOL_LATEX)


def dims_text(d: Any, latex: bool = False) -> str:
    """``every d ≥ 1``, ``every d ≥ 2`` or ``d = 1, 2, 3``; with ``latex``, MyST with the
    maths in ``$...$``."""
    if d in ("all", ">= 2"):
        low = 1 if d == "all" else 2
        return rf"every $d \ge {low}$" if latex else f"every d ≥ {low}"
    if isinstance(d, Sequence) and not isinstance(d, str) and d:
        dims = ", ".join(map(str, d))
        return f"$d = {dims}$" if latex else f"d = {dims}"
    return "no dimension"


def scope_text(scope: Mapping[str, Any], latex: bool = False) -> str:
    """The dimensions of the verdict, then those proved beside a refutation."""
    if not scope.get("d"):
        return "no dimension decided"
    text = dims_text(scope["d"], latex)
    if scope.get("proved"):
        zero = "$= 0$" if latex else "= 0"
        text += f"; {zero} identically in {dims_text(scope['proved'], latex)}"
    return text


def _short(expr: Any, limit: int = 60) -> str:
    text = sp.sstr(expr)
    if len(text) <= limit:
        return text
    return sp.sstr(sp.N(expr, 12))


def _point(cex: Mapping[str, Any]) -> str:
    parts = [f"d = {cex['d']}", f"β1 = ({', '.join(cex['beta1'])})",
             f"x = ({', '.join(cex['x'])})"]
    parts += [f"{k} = {sp.sstr(v)}" for k, v in cex.get("params", {}).items()]
    return ", ".join(parts)


def _point_tex(cex: Mapping[str, Any]) -> str:
    def vec(items: Sequence[str]) -> str:
        return "(" + ", ".join(tex(sp.Rational(t)) for t in items) + ")"

    parts = [f"d = {cex['d']}", rf"\beta_1 = {vec(cex['beta1'])}", f"x = {vec(cex['x'])}"]
    parts += [f"{tex(sp.Symbol(k))} = {tex(v)}" for k, v in cex.get("params", {}).items()]
    return ", ".join(parts)


def _undecided(res: Any) -> str:
    undecided = res.certificate.get("undecided") or {}
    if not undecided:
        return ""
    return "; not decided in " + "; ".join(f"{d} ({why})" for d, why in undecided.items())


def _general(value: Any) -> bool:
    return isinstance(value, str) and value in ("all", ">= 2")


def _premise(res: Any) -> str:
    """The premise of an every-d statement: where the formula was certified the same."""
    reduction = res.certificate.get("reduction")
    if not reduction or not any(_general(res.scope.get(k)) for k in ("d", "proved")):
        return ""
    dims = ", ".join(map(str, reduction["dimensions_certified"]))
    return f"; every d ≥ 2 on the premise that the score's formula is the same in every d " \
        f"(certified in d = {dims})"


def certificate_dims(res: Any) -> str:
    """``differentiated in β1; certificate in d = 1, 2, 3, 4`` (what the certificate uses)."""
    dims = res.dimensions
    used = sorted({d for key in ("invariant_form", "coordinates", "mpmath")
                   for d in dims.get(key, [])})
    text = "differentiated in " + ", ".join(_PARAMETER_TEXT.get(p, p)
                                             for p in res.differentiated)
    if used:
        text += "; certificate in d = " + ", ".join(map(str, used))
    return f" [{text}{_premise(res)}]"


def summary(res: Any) -> str:
    """One line: the finding with its dimensions, or why it is inconclusive."""
    return _finding(res) + (certificate_dims(res) if res.verdict != Verdict.INCONCLUSIVE
                            else "")


def _finding(res: Any) -> str:
    d = res.scope.get("d")
    if res.verdict == Verdict.PROVED:
        how = "the score is scale invariant in β1" if _general(d) else "explicit coordinates"
        only = "" if _general(d) else " only"
        return (f"{_LHS_TEXT} = 0 identically ({dims_text(d)}{only}): {how}"
                f"{_undecided(res)}")
    if res.verdict == Verdict.REFUTED:
        cex = res.counterexample or {}
        proved = res.scope.get("proved")
        lead = f"{_LHS_TEXT} is not identically 0 ({dims_text(d)})"
        general = _general(d)
        only_one = d == [1] and _general(proved)
        if only_one:
            lead = f"{_LHS_TEXT} = 0 for every d ≥ 2 but is not identically 0 in d = 1"
        elif general and res.residual_over_H is not None:
            ratio = sp.sstr(res.residual_over_H)
            if len(ratio) > 160:
                lead = (f"{_LHS_TEXT} = R·H, R = residual_over_H (too long to print here), is "
                        f"not identically 0 ({dims_text(d)})")
            else:
                ratio = ratio if res.residual_over_H.is_Atom else f"({ratio})"
                lead = f"{_LHS_TEXT} = {ratio}·H is not identically 0 ({dims_text(d)})"
        if proved and not only_one:
            lead += f"; = 0 identically in {dims_text(proved)}"
        if cex:
            lead += (f"; at {_point(cex)}: residual/H = {_short(cex['residual_over_H'])} "
                     "(exact)")
        return lead + _undecided(res)
    return f"inconclusive: {res.reason}"


def latex_residual(res: Any) -> str:
    """``$$ beta1^T dH/dbeta1 = ... $$`` (or the verdict when there is no closed form)."""
    if res.residual_over_H is None:
        return rf"$\text{{{res.verdict.value}}}$"
    if res.residual_over_H == 0:
        return f"$${_LHS_TEX} = 0$$"
    return f"$${_LHS_TEX} = \\left({tex(res.residual_over_H)}\\right) H$$"


def latex_display(res: Any) -> str:
    """The residual with what was differentiated and the dimensions of the verdict."""
    body = latex_residual(res)
    if not body.startswith("$$"):
        return body
    params = ", ".join(_PARAMETER_TEX.get(p, p) for p in res.differentiated)
    note = rf"\text{{{res.verdict.value}; {scope_text(res.scope)}}}"
    used = [t for t in certificate_dims(res).strip(" []").split("; ") if "certificate" in t]
    if used:
        note += rf"\text{{; {used[0]}}}"
    return f"{body[:-2]} \\qquad \\left(\\text{{in }} {params};\\ {note}\\right)$$"


def _mp_text(check: Mapping[str, Any]) -> str:
    """The mpmath cross-check in MyST, its maths in ``$...$``."""
    if not check:
        return ""
    rows = check.get("points", [])
    if not rows:
        return "mpmath cross-check: no point evaluated"
    dims = sorted({r["d"] for r in rows})
    error = tex(sp.Float(check["max_abs_error"], 2))
    return (f"mpmath cross-check ({check['dps']} digits, {len(rows)} rational points in "
            f"{dims_text(dims, latex=True)}): largest difference from the closed form "
            f"${error}$, {'agrees' if check['agrees'] else 'DISAGREES'}")


def markdown(res: Any) -> str:
    """A short Markdown account for a notebook."""
    lines = [rf"**Is $\beta_1^\top \partial H/\partial\beta_1 = 0$?** — "
             f"**{res.verdict.value}** ({scope_text(res.scope, latex=True)})", ""]
    if res.residual_over_H is not None:
        lines += [latex_residual(res), ""]
        if res.score is not None:
            lines += [rf"with $H = e^{{s}} h(x, \eta)$, $s = {tex(res.score)}$.", ""]
    if res.vanishing is not None and res.verdict == Verdict.REFUTED:
        lines.append(f"- **Vanishes where:** ${tex(res.vanishing)}$")
    if res.counterexample:
        cex = res.counterexample
        lines.append(f"- **Counterexample:** ${_point_tex(cex)}$: "
                     f"$\\text{{residual}}/H = {tex(cex['residual_over_H'])} \\approx "
                     f"{tex(sp.N(cex['residual_over_H'], 12))}$")
    if res.verdict == Verdict.INCONCLUSIVE:
        lines.append(f"- **Why inconclusive:** {res.reason}")
    params = ", ".join(_PARAMETER_TEX.get(p, p) for p in res.differentiated)
    lines.append(f"- **Differentiated:** ${params}$ (every coordinate; the Euler operator "
                 r"$\beta_1^\top\partial/\partial\beta_1$)")
    lines.append(f"- **Reading:** {res.reading_latex}")
    lines.append("- **Dimensions:** " + "; ".join(
        f"{key.replace('_', ' ')}: {dims_text(dims, latex=True)}"
        for key, dims in res.dimensions.items() if dims))
    cert = res.certificate
    if cert.get("method"):
        lines.append(f"- **Method:** {cert.get('method_latex') or cert['method']}")
    if cert.get("zero_by"):
        lines.append(f"- **Cancellation:** {cert['zero_by']}")
    mp = _mp_text(cert.get("mpmath", {}))
    if mp:
        lines.append(f"- **Cross-check:** {mp}")
    return "\n".join(lines) + "\n"


def derivation(res: Any) -> str:
    """The worked derivation (MyST Markdown) of an Outcome built from the result."""
    cert = res.certificate
    out = []
    reduction = cert.get("reduction")
    if reduction:
        out.append(
            f"**Score through the invariants.** $s = {tex(reduction['invariant_form'])}$ with "
            r"$u = \beta_1^\top x$, $n_b = \|\beta_1\|$, $n_x = \|x\|$: the same expression in "
            f"$d = {', '.join(map(str, reduction['dimensions_certified']))}$ (each polynomial "
            "part certified by expanding the difference to 0); $d = 1$: "
            f"{reduction['d1']}.\n")
        out.append(
            r"For $c > 0$, $(c\beta_1)^\top x = c\,u$ and $\|c\beta_1\| = c\,n_b$, and $h$ "
            r"does not depend on $\beta_1$, so $" + _LHS_TEX
            + r" = H \cdot \frac{d}{dc} s(x, c\beta_1)\Big|_{c=1}$ in every dimension." + "\n")
    elif cert.get("not_invariant"):
        out.append(f"**Fixed dimensions.** The score is not written through "
                   r"$\beta_1^\top x, \|\beta_1\|, \|x\|$ alone ("
                   f"{cert['not_invariant']}); each dimension is decided in coordinates, "
                   r"$\sum_i \beta_{1,i}\,\partial s/\partial \beta_{1,i}$." + "\n")
    if len(res.pieces) > 1:
        out.append("| piece | residual / $H$ | identically 0 |\n|---|---|---|")
        out += [f"| ${tex(p.region)}$ | ${tex(p.residual_over_H)}$ | {p.zero} |"
                for p in res.pieces]
        out.append("")
    if res.residual_over_H is not None:
        out.append(latex_residual(res))
        out.append("")
    if res.verdict == Verdict.PROVED:
        out.append(f"The residual is identically 0 ({cert.get('zero_by') or 'exactly'}).\n")
    elif res.verdict == Verdict.REFUTED and res.counterexample:
        cex = res.counterexample
        value = cex["residual_over_H"]
        text = (f"Not identically 0: at ${_point_tex(cex)}$ the residual over $H$ is "
                f"${tex(value)} \\approx {tex(sp.N(value, 12))}$ (30 digits certified)")
        if res.vanishing is not None:
            text += f"; it vanishes only where ${tex(res.vanishing)}$"
        out.append(text + ".\n")
    else:
        out.append(f"Inconclusive: {res.reason}\n")
    mp = _mp_text(cert.get("mpmath", {}))
    if mp:
        out.append(mp + ".\n")
    return "\n".join(out)
