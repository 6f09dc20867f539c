"""Checks of the steps inside seed 003's proofs: setup, losses, Lemmas 1-16, Props 1-3.

Every claim here is exact: a SymPy identity, exact rational arithmetic, or an exponent
computed symbolically. A failing step is a finding about the proof, and the claim says which
lemma's conclusion it supports. Order statements O(σ0^a), Θ(σ0^a), Ω(σ0^a) are read as
σ0 → 0 with every other quantity (M, N, s, d, α, C) fixed, under the paper's own parameter
choice η = σ0^0.5 (L382) unless a reading says otherwise: ``x = O(σ0^a)`` holds when the
σ0-exponent of ``x`` is at least ``a``, ``Ω`` when it is at most ``a``, ``Θ`` when equal.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict, claim
from moetheory.continual import theory as th

__all__ = ["SEED", "exponent"]

SEED = "003_3078ccb5100b14b7.txt"
SECTION = "Continual learning with MoE"

s0 = sp.Symbol("sigma_0", positive=True)
eta = sp.Symbol("eta", positive=True)
alpha, M_, lam = sp.symbols("alpha M lambda", positive=True)
HALF = sp.Rational(1, 2)


def exponent(expr: sp.Expr) -> sp.Expr:
    """The σ0-exponent ``a`` of a monomial ``c·σ0^a`` (``c`` free of σ0).

    Examples
    --------
    >>> exponent(3 * s0 ** sp.Rational(3, 4) * alpha)
    3/4
    """
    simple = sp.powsimp(sp.expand_power_base(sp.sympify(expr), force=True))
    coeff, power = simple.as_coeff_exponent(s0)
    if coeff.has(s0):
        raise ValueError(f"{expr} is not a monomial in sigma_0")
    return sp.nsimplify(power)


def _claim(cid: str, lines: list[int], covers: list[str], statement: str, reading: str,
           origin: str = "seed"):  # type: ignore[no-untyped-def]
    return claim(
        cid, reading=reading, kind="exact", statement=statement, seed_files=[SEED],
        section=SECTION, sources={SEED: lines}, covers=covers, origin=origin,
    )


def _v(ok: bool) -> Verdict:
    return Verdict.PROVED if ok else Verdict.REFUTED


def _r(name: str, text: str, ok: bool, summary: str, derivation: str = "", **ev: Any) -> Reading:
    return Reading(name, text, _v(ok), summary, ev, derivation)


def _out(readings: list[Reading], derivation: str, **ev: Any) -> Outcome:
    """Outcome with the primary reading's verdict; its evidence is the primary reading's."""
    out = Outcome.from_readings(readings, **(ev or dict(readings[0].evidence)))
    out.derivation = derivation
    return out


def _order(label: str, expr: sp.Expr, claimed: sp.Expr, kind: str) -> dict[str, Any]:
    """Compare the σ0-exponent of ``expr`` with ``claimed`` for ``kind`` in O, Θ, Ω."""
    a = exponent(expr)
    ok = {"O": a >= claimed, "Theta": a == claimed, "Omega": a <= claimed}[kind]
    return {"label": label, "expression": sp.sstr(expr), "exponent": str(a),
            "claimed": f"{kind}(sigma_0^{claimed})", "holds": bool(ok)}


PAPER_ETA = s0**HALF  # L382: eta chosen so that T1 = ceil(sigma_0^-0.5 M)


# ---------------------------------------------------------------------------------------
# Section 3: setup and losses
# ---------------------------------------------------------------------------------------


@_claim(
    "cl.setup.infinitely-many-fits", [49], ["003-10"],
    "With s_t < d samples, infinitely many linear models fit D_t exactly (L49).",
    "For every X_t ∈ R^{d×s} with s < d and y_t = X_tᵀ w: the solution set {w' : X_tᵀ w' = y_t} "
    "is w + null(X_tᵀ), of dimension ≥ d − s ≥ 1 (rank–nullity), checked symbolically and "
    "on exact rational instances for (d, s) = (3, 1), (3, 2), (10, 6).",
)
def check_infinitely_many_fits(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng(0)
    rows = []
    for d, s in ((3, 1), (3, 2), (10, 6)):
        X = sp.Matrix(rng.integers(-3, 4, size=(d, s)).tolist())
        null = X.T.nullspace()
        w = sp.Matrix(rng.integers(-3, 4, size=(d, 1)).tolist())
        c = sp.Symbol("c")
        residual = (X.T * (w + c * null[0]) - X.T * w).applyfunc(sp.expand) if null else None
        rows.append({"d": d, "s": s, "nullity": len(null),
                     "residual_for_every_c": residual == sp.zeros(s, 1)})
    ok = all(r["nullity"] >= r["d"] - r["s"] and r["residual_for_every_c"] for r in rows)
    return _out(
        [_r("rank-nullity", "solution set w + null(X_tᵀ), dim ≥ d − s ≥ 1", ok,
            "X_tᵀ has rank ≤ s < d, so its null space is non-trivial; w + c·z fits for every c",
            instances=rows)],
        "1. $\\operatorname{rank} X_t^\\top \\le s < d$, so $\\dim\\ker X_t^\\top \\ge "
        "d-s\\ge 1$.\n"
        "2. For $z\\in\\ker X_t^\\top$, $X_t^\\top(w+cz)=y_t$ for every $c\\in\\mathbb R$.\n"
        "3. The instances confirm the null space dimension and the residual $0$ for symbolic $c$.",
    )


@_claim(
    "cl.setup.gate-separates-signals", [64], ["003-11"],
    "A single linear gating network can solve the classification of X_t by its feature "
    "signal v_{n_t} (L64; the seed calls it binary).",
    "Primary: for linearly independent signals v_1..v_N (N ≤ d) there are gate parameters θ_m "
    "with argmax_m θ_mᵀ(β v_n) = n for every β > 0 (exact rational instance, N = 7, d = 10). "
    "Reading 'every X_t': with Gaussian noise columns (σ_t > 0) every linear gate misroutes "
    "with positive probability. The task is N-way, not binary.",
)
def check_gate_separates(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng(1)
    N, d = 7, 10
    V = sp.Matrix(rng.integers(-4, 5, size=(d, N)).tolist())
    theta = V * (V.T * V).inv()  # column m is θ_m; θ_mᵀ v_n = δ_mn
    gram = (theta.T * V).applyfunc(sp.nsimplify)
    ok = V.rank() == N and gram == sp.eye(N)
    noisy_col = V[:, 1] - V[:, 0]  # noise column u with v_0 + u = v_1
    scores = list(theta.T * (V[:, 0] + noisy_col))
    misroute = int(np.argmax([float(x) for x in scores])) != 0
    return _out(
        [
            _r("signals", "linearly independent signals, noiseless signal column, β > 0", ok,
               "θ = V(VᵀV)⁻¹ gives θ_mᵀ v_n = δ_mn exactly, so argmax_m θ_mᵀ(βv_n) = n",
               N=N, d=d, rank=int(V.rank()), theta_t_v_is_identity=ok),
            _r("every-X_t", "every X_t of Definition 1 with σ_t > 0 routed by its signal",
               not misroute,
               "the noise column u = v_1 − v_0 (in the Gaussian support) makes Σ_i X_i = v_1: "
               "the gate routes task 0 as task 1, and so on an open set of positive probability",
               scores=[str(x) for x in scores]),
        ],
        "1. $h_m(X)=\\theta_m^\\top\\sum_i X_{t,i}$ depends on $X_t$ only through the column "
        "sum.\n2. With $\\Theta=V(V^\\top V)^{-1}$, $\\Theta^\\top V=I_N$, so the signal "
        "$\\beta v_n$ scores $\\beta$ for gate $n$ and $0$ for every other.\n"
        "3. A noise column $u=v_{n'}-v_n$ turns the sum into $v_{n'}$: no gate can separate "
        "both; Gaussian noise puts positive mass near $u$, so errors have positive probability."
        "\n4. There are $N$ classes, so the sub-problem is $N$-way, not binary.",
    )


def _gd_certificate() -> dict[str, Any]:
    d, s = 3, 2
    X = sp.Matrix(d, s, lambda i, j: sp.Symbol(f"x{i}{j}", real=True))
    w0 = sp.Matrix(d, 1, lambda i, _: sp.Symbol(f"w{i}", real=True))
    y = sp.Matrix(s, 1, lambda i, _: sp.Symbol(f"y{i}", real=True))
    c = sp.Matrix(s, 1, lambda i, _: sp.Symbol(f"c{i}", real=True))
    a = sp.Symbol("a", positive=True)
    G = X.T * X
    b = y - X.T * w0
    c_star = sp.Matrix(s, 1, lambda i, _: sp.Symbol(f"cstar{i}", real=True))  # G c* = b
    # one GD step on L_tr = ||X^T w - y||^2/s with step gamma = a*s/2 from w0 + X c
    w = w0 + X * c
    step = w - a * X * (X.T * w - y)
    lhs = step - (w0 + X * c_star)
    rhs = X * ((sp.eye(s) - a * G) * (c - c_star))
    # lhs - rhs = -a X (G c* - b), which vanishes exactly when c* solves G c* = b
    resid = (lhs - rhs + a * X * (G * c_star - b)).applyfunc(sp.expand)
    return {"d": d, "s": s, "one_step_residual_zero": resid == sp.zeros(d, 1)}


@_claim(
    "cl.update.min-norm.gd-limit", [74], ["003-12"],
    "Gradient descent on L_tr from w_{t−1} converges to the solution (5) (L74).",
    "GD w ← w − γ∇L_tr, L_tr = ‖X_tᵀw − y_t‖²/s, started at w_{t−1}, with step "
    "0 < γ < s/λ_max(X_tᵀX_t): the iterates are w_{t−1} + X_t c_k with c_k − c* = "
    "(I − (2γ/s)X_tᵀX_t)^k(0 − c*) → 0, so they converge to (5). Certified by a symbolic "
    "one-step identity (d, s) = (3, 2) and the spectral condition.",
)
def check_gd_limit(ctx: CheckContext) -> Outcome:
    cert = _gd_certificate()
    ok = cert["one_step_residual_zero"]
    return _out(
        [_r("step-below-2/L", "0 < γ < s/λ_max(X_tᵀX_t)", ok,
            "each GD step maps w_{t−1} + Xc to w_{t−1} + X(c − a(Gc − b)); the error "
            "coefficients contract by I − aG, a = 2γ/s, whose spectrum lies in (−1, 1)",
            certificate=cert),
         _r("any-step", "any step size γ > 0 (the seed states none)", False,
            "for γ ≥ s/λ_max the factor 1 − (2γ/s)λ_max ≤ −1 and GD does not converge",
            counterexample={"d": 1, "s": 1, "X": 1, "gamma": 1, "factor": -1})],
        "1. $\\nabla L_{tr}(w)=\\tfrac2s X(X^\\top w-y)\\in\\operatorname{col}X$, so GD stays in "
        "$w_{t-1}+\\operatorname{col}X$.\n2. Writing $w_k=w_{t-1}+Xc_k$ and $G=X^\\top X$, "
        "$c_{k+1}-c^*=(I-aG)(c_k-c^*)$ with $a=2\\gamma/s$ and $c^*=G^{-1}(y-X^\\top w_{t-1})$ "
        "(SymPy: residual $0$).\n3. $G\\succ0$, so $\\|I-aG\\|<1$ iff $0<a<2/\\lambda_{\\max}$: "
        "$c_k\\to c^*$ and $w_k\\to w_{t-1}+Xc^*$, which is (5).",
    )


@_claim(
    "cl.update.min-norm.task-minimiser", [107], ["003-19"],
    "w_t from (5) is the unique minimiser of L_task (L107).",
    "Primary (literal): L_task(w) = L_tr(w) + π_{m_t}‖w − w_{t−1}‖² + L_aux as a function of "
    "the selected expert's model w (L_loc contains w): its unique minimiser is a ridge step, "
    "not (5). Reading 'L_loc, L_aux held fixed': L_tr alone has a (d − s)-dimensional set of "
    "minimisers, so (5) is not unique.",
)
def check_task_minimiser(ctx: CheckContext) -> Outcome:
    X = sp.Matrix([[1], [0]])  # d = 2, s = 1
    w_prev = sp.Matrix([0, 0])
    y = sp.Matrix([1])
    p = sp.Rational(1, 2)
    w = sp.Matrix(sp.symbols("u v", real=True))
    loss = ((X.T * w - y).norm() ** 2) / 1 + p * ((w - w_prev).T * (w - w_prev))[0]
    sol = sp.solve([sp.diff(loss, v) for v in w], list(w), dict=True)[0]
    ridge = sp.Matrix([sol[w[0]], sol[w[1]]])
    eq5 = w_prev + X * (X.T * X).inv() * (y - X.T * w_prev)
    other = eq5 + sp.Matrix([0, 1])
    ltr = lambda z: ((X.T * z - y).norm() ** 2)  # noqa: E731
    return _out(
        [
            _r("literal", "minimise L_task over w with π_{m_t}‖w − w_{t−1}‖² inside", ridge == eq5,
               f"the minimiser is {list(ridge)} ≠ (5) = {list(eq5)} (d = 2, s = 1, π = 1/2)",
               ridge=ridge, eq5=eq5),
            _r("fixed-aux", "L_loc and L_aux treated as constants", False,
               f"(5) = {list(eq5)} and {list(other)} both give L_tr = 0: not unique",
               L_tr_eq5=ltr(eq5), L_tr_other=ltr(other)),
            _r("corrected", "(5) is the minimiser of L_tr nearest w_{t−1}, and the limit of the "
               "literal minimiser as π_{m_t} → 0", True,
               "the literal minimiser is w_{t−1} + X(XᵀX + sπI)⁻¹(y − Xᵀw_{t−1}) → (5) as π → 0",
               origin="package"),
        ],
        "1. $L_{loc}$ contains $\\pi_{m_t}\\|w-w_{t-1}\\|^2$, so $L_{task}$ is strictly convex in "
        "$w$ with minimiser $w_{t-1}+X(X^\\top X+s\\pi I)^{-1}(y-X^\\top w_{t-1})$.\n"
        "2. Instance $d=2,s=1,X=e_1,y=1,w_{t-1}=0,\\pi=\\tfrac12$: minimiser "
        f"${sp.latex(ridge.T)}^\\top$, but (5) gives $e_1$.\n"
        "3. Without $L_{loc}$, every $e_1+c e_2$ has $L_{tr}=0$: the minimiser is not unique.",
    )


@_claim(
    "cl.loss.local-only-selected", [91], ["003-14"],
    "In (6) only the selected expert m_t can contribute: ‖w_t^{(m)} − w_{t−1}^{(m)}‖² = 0 for "
    "m ≠ m_t (L91).",
    "Unselected experts keep w_t^{(m)} = w_{t−1}^{(m)} (Section 3.3), so their terms vanish; "
    "symbolic check with M = 3 experts.",
)
def check_local_only_selected(ctx: CheckContext) -> Outcome:
    pis = sp.symbols("pi1:4", positive=True)
    prev = [sp.Matrix(sp.symbols(f"a{m}_1:4", real=True)) for m in range(3)]
    upd = sp.Matrix(sp.symbols("u1:4", real=True))
    new = [prev[0] + upd, prev[1], prev[2]]  # expert 0 selected
    loss = sum(p * ((n - o).T * (n - o))[0] for p, n, o in zip(pis, new, prev, strict=True))
    ok = sp.expand(loss - pis[0] * (upd.T * upd)[0]) == 0
    return _out(
        [_r("definition", "unselected experts unchanged, M = 3", ok,
            "L_loc reduces to π_{m_t}‖w_t^{(m_t)} − w_{t−1}^{(m_t)}‖²", loss=loss)],
        "1. For $m\\ne m_t$, $w^{(m)}_t=w^{(m)}_{t-1}$ by Section 3.3.\n"
        "2. Hence $L_{loc}=\\pi_{m_t}\\|w^{(m_t)}_t-w^{(m_t)}_{t-1}\\|^2$ (SymPy expansion).",
    )


@_claim(
    "cl.loss.aux-uniform-minimiser", [97], ["003-16"],
    "The auxiliary loss (7) is minimised under uniform routing, where f_t^{(m)} = 1/M and "
    "P_t^{(m)} = 1/M (L97).",
    "Primary (literal): the minimiser has f = P = 1/M, with P as defined in (7). Reading: "
    "uniform f minimises L_aux among routing histories whose selected softmax values are at "
    "least π_min (noise-free routing: π_min = 1/M; noisy routing r ∈ [0, λ]: π_min = "
    "1/(1 + (M − 1)e^λ)).",
)
def check_aux_uniform(ctx: CheckContext) -> Outcome:
    Mv = 2
    h = [sp.Integer(0), sp.Integer(0)]
    pi_sel = sp.exp(h[0]) / sum(sp.exp(x) for x in h)  # the largest softmax value possible
    # uniform routing over two rounds, one per expert: P_m = (1/t) * pi_sel
    P_uniform = pi_sel / Mv
    literal_ok = P_uniform == sp.Rational(1, Mv)
    fm = sp.symbols("f1:4", nonnegative=True)
    cs = sp.expand(sum(x**2 for x in fm) - sp.Rational(1, 3) * sum(fm) ** 2)
    cs_sos = sp.expand(sum((fm[i] - fm[j]) ** 2 for i in range(3) for j in range(i + 1, 3)) / 3)
    sos_ok = sp.simplify(cs - cs_sos) == 0
    lam_v = sp.Rational(3, 10)
    pi_min = 1 / (1 + (Mv - 1) * sp.exp(lam_v))
    return _out(
        [
            _r("literal", "minimiser at f = P = 1/M, P as in (7)", bool(literal_ok),
               f"P_m ≤ f_m·max π_{{m_τ}} < f_m since a softmax value is < 1: with M = 2 and "
               f"equal gates, uniform routing gives P_m = {P_uniform} ≠ 1/2; f = P = 1/M "
               "needs every selected softmax to equal 1", P_uniform=P_uniform),
            _r("uniform-f", "uniform f minimises L_aux given π_{m_τ} ≥ π_min", bool(sos_ok),
               "P_m ≥ π_min f_m, so L_aux ≥ αMπ_min Σ f_m² ≥ απ_min, with equality iff f_m = 1/M "
               f"and every π_{{m_τ}} = π_min (noisy routing, M = 2, λ = 3/10: π_min = "
               f"{sp.N(pi_min, 6)})", sum_of_squares=cs_sos),
        ],
        "1. By (7), $P^{(m)}_t=\\frac1t\\sum_\\tau\\pi_m(X_\\tau)1\\{m_\\tau=m\\}\\le "
        "f^{(m)}_t\\max_\\tau\\pi_{m_\\tau}<f^{(m)}_t$: $P=1/M$ together with $f=1/M$ is "
        "impossible, so the stated minimiser does not exist.\n"
        "2. Routing picks $\\arg\\max(h+r)$ with $r\\in[0,\\lambda]$, so the selected "
        "softmax value is at least $\\pi_{\\min}=1/(1+(M-1)e^\\lambda)$ ($1/M$ without noise).\n"
        "3. Then $\\sum_mf_mP_m\\ge\\pi_{\\min}\\sum_mf_m^2\\ge\\pi_{\\min}/M$ "
        "($\\sum f_m^2-\\frac1M(\\sum f_m)^2$ is a sum of squares), with equality iff $f$ is "
        "uniform: uniform routing does minimise, at $P=\\pi_{\\min}/M$, not $1/M$.",
    )


# ---------------------------------------------------------------------------------------
# Lemma 1 (Appendix C) and Lemma 2 (Appendix B)
# ---------------------------------------------------------------------------------------


@_claim(
    "cl.lemma1.gate-difference-step", [300, 302, 304], [],
    "|h_m(X_t, θ_t^{(m)}) − h_m(X̃_t, θ_t^{(m)})| = |Σ_{i=2}^s θᵀX_{t,i}| ≤ max_j θ_{t,j}·"
    "|Σ_{i=2}^s Σ_{j=1}^d X_{t,(i,j)}| (L302), X̃_t being X_t with only its signal column.",
    "Exact, on integer instances. Primary: the inequality as printed (max_j θ_j, not its "
    "absolute value, times |Σ_j S_j| with S_j = Σ_{i>=2} X_{t,(i,j)}). Readings: with "
    "max_j |θ_j| in place of max_j θ_j; and the Hölder form ‖θ‖∞ Σ_j |S_j| (which holds).",
)
def check_lemma1_gate_difference(ctx: CheckContext) -> Outcome:
    def sides(theta: list[int], S: list[int]) -> tuple[int, int, int, int]:
        lhs = abs(sum(a * b for a, b in zip(theta, S, strict=True)))
        return (lhs, max(theta) * abs(sum(S)), max(abs(a) for a in theta) * abs(sum(S)),
                max(abs(a) for a in theta) * sum(abs(b) for b in S))

    theta, S = [1, -1], [1, -1]  # d = 2: the noise columns' sums cancel, the products do not
    lhs, printed, absmax, holder = sides(theta, S)
    # Hölder on a grid of integer instances (d = 2, entries in -2..2): never violated
    grid = range(-2, 3)
    holder_ok = all(
        sides([a, b], [c, e])[0] <= sides([a, b], [c, e])[3]
        for a in grid for b in grid for c in grid for e in grid
    )
    return _out(
        [_r("as-printed", "≤ max_j θ_j · |Σ_j S_j|", lhs <= printed,
            f"θ = (1, −1), S = (1, −1): left side {lhs} > right side {printed}",
            theta=theta, S=S, lhs=lhs, rhs=printed),
         _r("abs-max", "≤ max_j |θ_j| · |Σ_j S_j|", lhs <= absmax,
            f"the same instance: {lhs} > {absmax}", theta=theta, S=S, lhs=lhs, rhs=absmax),
         _r("holder", "≤ ‖θ‖∞ · Σ_j |S_j|", holder_ok,
            "|Σ_j θ_j S_j| ≤ Σ_j |θ_j||S_j| ≤ ‖θ‖∞ Σ_j |S_j|; no violation on the 625 integer "
            "instances with entries in −2..2", instances=625, holder_at_counterexample=holder)],
        "1. With $S_j=\\sum_{i\\ge2}X_{t,(i,j)}$ the difference is "
        "$|\\sum_j\\theta_jS_j|$.\n"
        "2. The printed bound multiplies $\\max_j\\theta_j$ by $|\\sum_jS_j|$: noise sums "
        "that cancel across coordinates make the right side 0 while the left side is not "
        "($\\theta=(1,-1)$, $S=(1,-1)$: $2>0$), with or without the absolute value on $\\theta$.\n"
        "3. The triangle inequality gives the correct form "
        "$\\|\\theta\\|_\\infty\\sum_j|S_j|$; L314's order argument then needs "
        "$\\sum_j|S_j|$, whose order is $\\sigma_t\\sqrt{s}\\,d$ rather than $|\\sum_jS_j|$'s "
        "$\\sigma_t\\sqrt{sd}$.",
    )


@_claim(
    "cl.lemma1.wlog-first-column", [298], ["003-21"],
    "Without loss of generality the signal β_t v_n is the first column of X_t (L298).",
    "Permuting the columns of X_t (and y_t with them) leaves the gate outputs h_m = θᵀΣ_i X_i "
    "and the update (5) unchanged; symbolic check for d = 3, s = 2.",
)
def check_wlog_first_column(ctx: CheckContext) -> Outcome:
    X = sp.Matrix(3, 2, lambda i, j: sp.Symbol(f"x{i}{j}", real=True))
    P = sp.Matrix([[0, 1], [1, 0]])
    proj = X * (X.T * X).inv() * X.T
    Xp = X * P
    projp = Xp * (Xp.T * Xp).inv() * Xp.T
    same_proj = (proj - projp).applyfunc(sp.simplify) == sp.zeros(3, 3)
    same_sum = (Xp * sp.ones(2, 1) - X * sp.ones(2, 1)) == sp.zeros(3, 1)
    ok = same_proj and same_sum
    return _out(
        [_r("permutation", "column permutation of X_t, d = 3, s = 2", ok,
            "X(XᵀX)⁻¹Xᵀ and Σ_i X_i are invariant under X → XΠ, so (5) and h_m are unchanged",
            projection_invariant=same_proj, column_sum_invariant=same_sum)],
        "1. $X\\Pi((X\\Pi)^\\top X\\Pi)^{-1}(X\\Pi)^\\top=X\\Pi\\Pi^\\top(X^\\top "
        "X)^{-1}\\Pi\\Pi^\\top "
        "X^\\top=X(X^\\top X)^{-1}X^\\top$; with $y\\to\\Pi^\\top y$ the update (5) is the same.\n"
        "2. $h_m$ uses $\\sum_i X_{t,i}$, which does not depend on column order.",
    )


@_claim(
    "cl.lemma1.hoeffding-step", [308, 310], ["003-23"],
    "P(|Σ_{i≥2}Σ_j X_t,(i,j)| < s·d·σ0) ≥ 1 − 2exp(−σ0²s²d²/‖X_{t,i}‖∞) (L308).",
    "Primary: ‖X_{t,i}‖∞ read as its stated order σ_t (L310); the probability is computed "
    "exactly (the double sum is N(0, (s−1)dσ_t²)) with 60-digit mpmath at Appendix A.2's "
    "σ0 = 0.4, σ_t = 0.1, s = 6, d = 10 and at σ0 = 0.1. Corrected: the Gaussian tail bound "
    "1 − 2exp(−(sdσ0)²/(2(s−1)dσ_t²)).",
)
def check_hoeffding_step(ctx: CheckContext) -> Outcome:
    mpmath.mp.dps = 60
    rows = []
    for sig0, sigt, s, d in ((0.4, 0.1, 6, 10), (0.1, 0.1, 6, 10)):
        a = mpmath.mpf(s * d) * mpmath.mpf(str(sig0))
        sd = mpmath.mpf(str(sigt)) * mpmath.sqrt((s - 1) * d)
        fail_true = mpmath.erfc(a / (sd * mpmath.sqrt(2)))  # P(|S| >= a)
        fail_seed = 2 * mpmath.exp(
            -(mpmath.mpf(str(sig0)) ** 2) * s**2 * d**2 / mpmath.mpf(str(sigt)))
        fail_fixed = 2 * mpmath.exp(-(a**2) / (2 * sd**2))
        rows.append({
            "sigma0": sig0, "sigma_t": sigt, "s": s, "d": d,
            "log10_true_failure": float(mpmath.log10(fail_true)),
            "log10_seed_bound": float(mpmath.log10(fail_seed)),
            "log10_corrected_bound": float(mpmath.log10(fail_fixed)),
            "seed_holds": bool(fail_true <= fail_seed),
            "corrected_holds": bool(fail_true <= fail_fixed),
        })
    ok = all(r["seed_holds"] for r in rows)
    return _out(
        [
            _r("norm-as-sigma_t", "‖X_{t,i}‖∞ replaced by σ_t", ok,
               "the true failure probability exceeds the seed's bound: "
               f"10^{rows[0]['log10_true_failure']:.1f} > 10^{rows[0]['log10_seed_bound']:.1f}",
               rows=rows),
            _r("corrected", "1 − 2exp(−(sdσ0)²/(2(s−1)dσ_t²)) (Gaussian Chernoff bound)",
               all(r["corrected_holds"] for r in rows), "holds at both settings", rows=rows),
        ],
        "1. $S=\\sum_{i=2}^s\\sum_{j=1}^d X_{t,(i,j)}\\sim N(0,(s-1)d\\sigma_t^2)$ exactly, so "
        "$P(|S|\\ge a)=\\operatorname{erfc}(a/(\\sigma_t\\sqrt{2(s-1)d}))$ with $a=sd\\sigma_0$.\n"
        "2. The seed's exponent $\\sigma_0^2s^2d^2/\\|X\\|_\\infty$ is linear, not quadratic, in "
        "the entry scale and ignores the $(s-1)d$ summands; at A.2 it claims a failure "
        "probability far below the exact one.\n3. The Chernoff bound "
        "$2\\exp(-a^2/(2(s-1)d\\sigma_t^2))$ holds (second reading).",
    )


@_claim(
    "cl.lemma1.exponential-o1", [310], ["003-24"],
    "exp(−σ0²s²d²/‖X_{t,i}‖∞) = o(1), hence |Σ_iΣ_j X_t,(i,j)| = O(σ0) w.p. 1 − o(1) (L310).",
    "As σ0 → 0 with s, d and the noise level σ_t fixed (Appendix A.2 fixes σ_t = 0.1), and "
    "reading σ_t = σ0^a for the orders a that make the term vanish.",
)
def check_exponential_o1(ctx: CheckContext) -> Outcome:
    s, d, sigt = sp.symbols("s d sigma_t", positive=True)
    lim_fixed = sp.limit(sp.exp(-(s0**2) * s**2 * d**2 / sigt), s0, 0, "+")
    a = sp.Symbol("a", positive=True)
    lim_scaled = sp.limit(sp.exp(-(s0**2) * 36 * 100 / s0**3), s0, 0, "+")
    return _out(
        [
            _r("sigma_t-fixed", "σ0 → 0, σ_t fixed", lim_fixed == 0,
               f"the term tends to {lim_fixed}, not 0, so 1 − 2exp(·) → −1 bounds nothing",
               limit=lim_fixed),
            _r("sigma_t-small", "σ_t = σ0^a with a > 2 (example a = 3)", lim_scaled == 0,
               "o(1) holds only when σ_t shrinks faster than σ0²", limit=lim_scaled,
               condition=str(a > 2)),
        ],
        "1. The exponent is $-\\sigma_0^2s^2d^2/\\sigma_t\\to0$ as $\\sigma_0\\to0$ with "
        "$\\sigma_t$ fixed, so $\\exp(\\cdot)\\to1$ and $1-2\\exp(\\cdot)\\to-1$: the bound says "
        "nothing.\n2. It is $o(1)$ iff $\\sigma_0^2/\\sigma_t\\to\\infty$, e.g. "
        "$\\sigma_t=\\sigma_0^3$.",
    )


@_claim(
    "cl.lemma1.signal-gap-assumption", [201, 318, 320], ["003-25"],
    "The M < N proof of Lemma 1 uses ‖v_n − v'_n‖∞ = O(σ0^1.5), 'our assumption' (L320), and "
    "gets |θᵀ(v_n − v'_n)| = O(σ0²).",
    "Primary: Section 5.2 (L201) assumes ‖w_n − w_n'‖∞ = O(σ0^1.5) for ground truths, not for "
    "signals; Definition 1 lets signals be arbitrary. Reading A.2 (v_n = c·w_n): the "
    "assumption follows. Exponent step: O(σ0^0.5)·O(σ0^1.5) = O(σ0²).",
)
def check_signal_gap(ctx: CheckContext) -> Outcome:
    step = _order("theta·dv", s0**HALF * s0 ** sp.Rational(3, 2), sp.Integer(2), "O")
    c = sp.Symbol("c", positive=True)
    wn, wm = sp.symbols("w_n w_m", real=True)
    a2 = sp.simplify(abs(c * wn - c * wm) - c * abs(wn - wm)) == 0
    return _out(
        [
            _r("as-stated", "the assumption on signals is among the paper's assumptions", False,
               "w_n = w_n' with v_n = e_1, v_n' = e_2 satisfies every stated assumption but "
               "‖v_n − v_n'‖∞ = 1", counterexample={"w_n": "w_n'", "v_n": [1, 0], "v_n'": [0, 1]}),
            _r("A.2-signals", "v_n = c·w_n (Appendix A.2)", a2,
               "‖v_n − v_n'‖∞ = c‖w_n − w_n'‖∞ = O(σ0^1.5)"),
            _r("exponent-step", "O(σ0^0.5)·O(σ0^1.5) = O(σ0²)", step["holds"],
               "exponent 0.5 + 1.5 = 2", step=step),
        ],
        "1. L201 assumes within-cluster closeness of ground truths $w$; L320 calls closeness "
        "of signals $v$ 'our assumption'. Definition 1 ties $v$ to nothing, so the assumption "
        "is new.\n2. Under A.2's $v_n=cw_n$ it follows with the factor $c$.\n"
        "3. The exponent step is right: $0.5+1.5=2$.",
    )


@_claim(
    "cl.lemma2.argmax-inequality", [272], ["003-27"],
    "If m1 = argmax(h + r) ≠ m2 = argmax(ĥ + r), then ĥ_{m2} − ĥ_{m1} > r(m1) − r(m2) ≥ "
    "h_{m2} − h_{m1} (L272).",
    "Primary: almost surely, as the step is used inside a probability over continuous r "
    "(argmax ties have probability 0); the weak inequality holds for every r. Reading: as a "
    "deterministic implication with ties allowed.",
)
def check_argmax_inequality(ctx: CheckContext) -> Outcome:
    h = [Fraction(0), Fraction(0)]
    hh = [Fraction(0), Fraction(0)]
    r = [Fraction(1, 10), Fraction(1, 10)]
    m1, m2 = 0, 1  # a tie: both are maximisers of h + r and of ĥ + r
    strict = hh[m2] - hh[m1] > r[m1] - r[m2]
    weak = hh[m2] - hh[m1] >= r[m1] - r[m2] >= h[m2] - h[m1]
    return _out(
        [
            _r("almost-surely", "for continuous r: '>' except on ties (probability 0), '≥' always",
               weak,
               "adding the two argmax inequalities gives ĥ_{m2} − ĥ_{m1} ≥ r_1 − r_2 ≥ "
               "h_{m2} − h_{m1}; equality needs a tie, a null event"),
            _r("deterministic", "for every h, ĥ, r with m1 ≠ m2 maximisers (ties allowed)", strict,
               "h = ĥ = 0, r = (1/10, 1/10): expert 1 maximises h + r, expert 2 maximises "
               "ĥ + r, and ĥ_2 − ĥ_1 = 0 = r_1 − r_2", h=[str(x) for x in h],
               r=[str(x) for x in r]),
        ],
        "1. $h_{m_1}+r_1\\ge h_{m_2}+r_2$ gives $r_1-r_2\\ge h_{m_2}-h_{m_1}$.\n"
        "2. $\\hat h_{m_2}+r_2\\ge\\hat h_{m_1}+r_1$ gives $\\hat h_{m_2}-\\hat "
        "h_{m_1}\\ge r_1-r_2$, "
        "with equality at ties, so the strict '>' fails (counterexample); it fails only on a "
        "null set for continuous $r$.",
    )


@_claim(
    "cl.lemma2.centring-step", [274, 276], ["003-28"],
    "With C = (ĥ_{m2} − ĥ_{m1} + h_{m2} − h_{m1})/2: |r(m1) − r(m2) − C| ≤ (ĥ_{m2} − ĥ_{m1} − "
    "h_{m2} + h_{m1})/2 ≤ ‖ĥ − h‖∞ (L274–276).",
    "Given a := h_{m2} − h_{m1} ≤ x := r(m1) − r(m2) ≤ b := ĥ_{m2} − ĥ_{m1}: symbolic proof.",
)
def check_centring_step(ctx: CheckContext) -> Outcome:
    a, b, x, d1, d2 = sp.symbols("a b x delta1 delta2", real=True)
    C = (a + b) / 2
    up = sp.expand((b - a) / 2 - (x - C))
    lo = sp.expand((b - a) / 2 + (x - C))
    h1, h2 = sp.symbols("h1 h2", real=True)
    half = sp.expand(((h2 + d2 - h1 - d1) - (h2 - h1)) / 2)
    ok = up == b - x and lo == x - a and half == (d2 - d1) / 2
    return _out(
        [_r("symbolic", "a ≤ x ≤ b, δ = ĥ − h", ok,
            "(b−a)/2 ∓ (x − C) equal b − x and x − a, both ≥ 0; (b − a)/2 = (δ_{m2} − δ_{m1})/2 "
            "≤ ‖δ‖∞", upper_slack=up, lower_slack=lo, half_width=half)],
        "1. $\\tfrac{b-a}2-(x-C)=b-x\\ge0$ and $\\tfrac{b-a}2+(x-C)=x-a\\ge0$, so "
        "$|x-C|\\le\\tfrac{b-a}2$.\n2. $\\tfrac{b-a}2=\\tfrac{\\delta_{m_2}-\\delta_{m_1}}2\\le"
        "\\|\\delta\\|_\\infty$.",
    )


@_claim(
    "cl.corollary1.order", [290, 324], ["003-30"],
    "Corollary 1: for data sets from the same ground truth, ‖p − p̂‖∞ = O(λM²σ0^1.5) (L290, L324).",
    "M = 2 experts, r ~ U[0, λ] with λ = σ0^1.25 (Appendix A.4) and ‖h − ĥ‖∞ = σ0^1.5 (Lemma 1's "
    "order, h = (ε, 0), ĥ = (0, ε)); routing probabilities computed exactly for σ0 = 2^-4k, "
    "k = 1, 2, 3, and the σ0-exponent of ‖p − p̂‖∞ compared with λM²σ0^1.5's (2.75).",
)
def check_corollary1(ctx: CheckContext) -> Outcome:
    rows = []
    for k in (1, 2, 3):
        sig = sp.Rational(1, 2 ** (4 * k))
        lam_v = sig ** sp.Rational(5, 4)
        eps = sig ** sp.Rational(3, 2)
        p = th.routing_probabilities_exact([eps, 0], lam_v)
        ph = th.routing_probabilities_exact([0, eps], lam_v)
        gap = max(abs(sp.nsimplify(a - b)) for a, b in zip(p, ph, strict=True))
        rows.append({"sigma0": str(sig), "gap": str(gap),
                     "gap_over_sigma0^0.25": str(sp.nsimplify(gap / sig ** sp.Rational(1, 4))),
                     "gap_over_lambda_M2_sigma0^1.5": str(sp.nsimplify(gap / (4 * lam_v * eps)))})
    exact_form = all(
        sp.Rational(r["gap"]) == 2 * q - q**2
        for r, q in zip(rows, (sp.Rational(1, 2 ** k) for k in (1, 2, 3)), strict=True)
    )
    ok = not exact_form or exponent(s0 ** sp.Rational(1, 4)) >= sp.Rational(11, 4)
    return _out(
        [_r("lambda=sigma0^1.25", "λ = σ0^1.25, ‖h − ĥ‖∞ = σ0^1.5, M = 2", ok,
            "‖p − p̂‖∞ = 2q − q² with q = σ0^0.25 exactly (exponent 0.25), so its ratio to "
            "λM²σ0^1.5 (exponent 2.75) grows without bound as σ0 → 0", rows=rows,
            exact_form_2q_minus_q2=exact_form)],
        "1. For $M=2$, $p_1=P(r_2-r_1<h_1-h_2)$ and $r_2-r_1$ has density $(\\lambda-|u|)/"
        "\\lambda^2$, so $p_1(\\Delta)=1-(\\lambda-\\Delta)^2/(2\\lambda^2)$ and "
        "$p_1(-\\Delta)=(\\lambda-\\Delta)^2/(2\\lambda^2)$ for $0\\le\\Delta\\le\\lambda$.\n"
        "2. With $\\Delta=\\varepsilon$ the gap is $2q-q^2$, $q=\\varepsilon/\\lambda="
        "\\sigma_0^{0.25}$ (exact rows).\n3. $\\lambda M^2\\sigma_0^{1.5}"
        "=4\\sigma_0^{2.75}$: exponent $2.75>0.25$, so the corollary's order fails; the "
        "router's sensitivity scales with $1/\\lambda$, not $\\lambda$.",
    )


# ---------------------------------------------------------------------------------------
# Lemmas 4-6 (Appendix D)
# ---------------------------------------------------------------------------------------


@_claim(
    "cl.lemma4.aux-gradient-formula", [352, 354], ["003-33"],
    "∇_{θ(m)}L_aux = αM Σ_{m'} f_t^{(m')} ∂P_t^{(m')}/∂θ(m) = αM·t·f_t^{(m_t)} "
    "∂π_{m_t}/∂θ(m) (L352).",
    "P_t^{(m)} of (7) with the earlier rounds' softmax values held fixed (only round t depends "
    "on Θ_t); symbolic differentiation for M = 2 experts and a scalar gate input.",
)
def check_aux_gradient_formula(ctx: CheckContext) -> Outcome:
    t = sp.Symbol("t", positive=True)
    th1, th2, x = sp.symbols("theta1 theta2 x", real=True)
    f1, f2, c1, c2 = sp.symbols("f1 f2 c1 c2", positive=True)
    pi1 = sp.exp(th1 * x) / (sp.exp(th1 * x) + sp.exp(th2 * x))
    P1 = (c1 + pi1) / t  # expert 1 selected at round t
    P2 = c2 / t
    L = alpha * 2 * (f1 * P1 + f2 * P2)
    grad = sp.diff(L, th1)
    seed = alpha * 2 * t * f1 * sp.diff(pi1, th1)
    fixed = alpha * 2 * f1 / t * sp.diff(pi1, th1)
    ratio = sp.simplify(grad / seed)
    return _out(
        [_r("as-printed", "αM·t·f·∂π/∂θ", sp.simplify(ratio - 1) == 0,
            f"the derivative is αM·f/t·∂π/∂θ; ratio to the printed form = {ratio}",
            ratio=ratio),
         _r("corrected", "αM·f_t^{(m_t)}/t·∂π_{m_t}/∂θ(m) (as L366 and L380 use)",
            sp.simplify(grad - fixed) == 0, "identity", origin="package")],
        "1. Only $P^{(m_t)}_t$ depends on $\\Theta_t$, through "
        "$\\frac1t\\pi_{m_t}(X_t,\\Theta_t)$.\n"
        "2. So $\\nabla_{\\theta^{(m)}}L_{aux}=\\alpha M f^{(m_t)}_t\\frac1t\\partial\\pi_{m_t}/"
        "\\partial\\theta^{(m)}$: the printed factor $t$ should be $1/t$ (ratio $1/t^2$).",
    )


@_claim(
    "cl.lemma5.aux-gradient-order", [380, 382, 386], ["003-35"],
    "With η = Ω(σ0^0.5) making T1 = ⌈σ0^-0.5 M⌉: αM/T1 ≥ σ0 for t ≤ T1 (so ∇L_aux = Ω(σ0)), and "
    "αM/T1 = O(σ0) for t > T1 (L380–386).",
    "σ0 → 0 with α, M fixed and T1 = σ0^-0.5 M: the σ0-exponent of αM/T1 (0.5) against "
    "the claimed Ω(σ0) (exponent ≤ 1) and O(σ0) (exponent ≥ 1).",
)
def check_aux_gradient_order(ctx: CheckContext) -> Outcome:
    T1 = s0 ** (-HALF) * M_
    lower = _order("alpha M / T1 (t <= T1)", alpha * M_ / T1, sp.Integer(1), "Omega")
    upper = _order("alpha M / T1 (t > T1)", alpha * M_ / T1, sp.Integer(1), "O")
    return _out(
        [_r("after-T1", "αM/T1 = O(σ0) for t > T1", upper["holds"],
            "αM/T1 = ασ0^0.5, exponent 0.5 < 1: not O(σ0)", row=upper),
         _r("up-to-T1", "αM/T1 = Ω(σ0) for t ≤ T1", lower["holds"],
            "exponent 0.5 ≤ 1: Ω(σ0) holds", row=lower)],
        "1. $T_1=\\sigma_0^{-0.5}M$ gives $\\alpha M/T_1=\\alpha\\sigma_0^{0.5}$.\n"
        "2. $\\sigma_0^{0.5}\\ge\\sigma_0$ for small $\\sigma_0$: the exploration bound "
        "$\\Omega(\\sigma_0)$ holds.\n3. For $t>T_1$ the bound $\\alpha "
        "M/t\\le\\alpha\\sigma_0^{0.5}$ "
        "is not $O(\\sigma_0)$ ($\\sigma_0^{0.5}/\\sigma_0\\to\\infty$); Lemma 5's second "
        "case, and "
        "Lemma 6's router-phase bound, lose a factor $\\sigma_0^{-0.5}$.",
    )


@_claim(
    "cl.lemma5.local-gradient-order", [370, 372, 374], ["003-111"],
    "‖∇_{θ(m)}L_loc‖∞ = O(σ0) (L372–374).",
    "‖∇L_loc‖∞ ≤ |∂π/∂θ|·‖w_t − w_{t−1}‖² with ∂π/∂θ = O(1) and ‖w_t − w_{t−1}‖ ≤ ‖w_{n_t} − "
    "w_{t−1}‖ = O(σ0) (projection; ground truths and models of order σ0): σ0-exponent 2 ≥ 1.",
)
def check_local_gradient_order(ctx: CheckContext) -> Outcome:
    row = _order("|d pi| * ||dw||^2", sp.Integer(1) * s0**2, sp.Integer(1), "O")
    return _out(
        [_r("squared-norm", "∂π/∂θ = O(1), ‖Δw‖ = O(σ0)", row["holds"],
            "the bound is O(σ0²), which is O(σ0): the claim holds and is loose", row=row)],
        "1. $\\|w_t-w_{t-1}\\|=\\|P_t(w_{n_t}-w_{t-1})\\|\\le\\|w_{n_t}-w_{t-1}\\|=O(\\sigma_0)$.\n"
        "2. The loss uses its square: $O(\\sigma_0^2)\\subset O(\\sigma_0)$.",
    )


@_claim(
    "cl.lemma6.parameter-bound", [398, 402], [],
    "Lemma 6's steps: ‖θ_t^{(m)}‖∞ ≤ η·T1·αM = O(σ0^0.5) for t ≤ T1, and ‖θ_t‖∞ ≤ ‖θ_{T1}‖∞ + "
    "η(T − T1)αM/T1 = O(σ0^0.5) for t > T1 (L398, L402).",
    "η = σ0^0.5, T1 = M/η, α, M fixed, σ0 → 0; the router phase for every horizon T.",
)
def check_lemma6_steps(ctx: CheckContext) -> Outcome:
    T1 = M_ / PAPER_ETA
    explore = _order("eta*T1*alpha*M", PAPER_ETA * T1 * alpha * M_, HALF, "O")
    T = sp.Symbol("T", positive=True)
    router = sp.simplify(PAPER_ETA * (T - T1) * alpha * M_ / T1)
    unbounded = sp.limit(router, T, sp.oo) == sp.oo
    return _out(
        [_r("exploration", "η·T1·αM = O(σ0^0.5)", explore["holds"],
            "η·T1·αM = αM², exponent 0 < 0.5: not O(σ0^0.5)", row=explore),
         _r("router-phase", "η(T − T1)αM/T1 = O(σ0^0.5) for every T", not unbounded,
            f"η(T − T1)αM/T1 = {router}, unbounded in T", expression=router)],
        "1. $\\eta T_1\\alpha M=\\eta\\cdot\\frac M\\eta\\cdot\\alpha M=\\alpha M^2$, "
        "independent of "
        "$\\sigma_0$: the bound is $O(1)$, not $O(\\sigma_0^{0.5})$.\n"
        "2. $\\eta(T-T_1)\\alpha M/T_1=\\alpha\\sigma_0(T-T_1)$ grows without bound in $T$; the "
        "seed's $O(\\sigma_0^{0.5}-\\sigma_0)$ drops the factor $T-T_1$.\n3. The per-round "
        "bound $\\alpha Mf/t\\le\\alpha M/t$ would give the sharper "
        "$\\sum_{t\\le T_1}\\eta\\alpha M/t=O(\\sigma_0^{0.5}\\ln(1/\\sigma_0))$ in "
        "exploration; the step as written does not.",
    )


# ---------------------------------------------------------------------------------------
# Lemmas 7-13 (Appendix E)
# ---------------------------------------------------------------------------------------


def _gate_step(M: int, h: list, S: sp.Matrix, selected: int, coef: sp.Expr) -> list[sp.Matrix]:
    """θ-step of every expert: −η·coef·∂π_{m_t}/∂θ(m) with ∂π_{m_t}/∂θ(m) = π_{m_t}(δ − π_m)S."""
    Z = sum(sp.exp(x) for x in h)
    pi = [sp.exp(x) / Z for x in h]
    return [-coef * pi[selected] * ((1 if m == selected else 0) - pi[m]) * S for m in range(M)]


@_claim(
    "cl.lemma7.step-signs", [415, 417, 419, 462], ["003-38"],
    "During exploration, for any signal v_n: ⟨θ_{t+1}^{(m)} − θ_t^{(m)}, v_n⟩ = −O(σ0) for m = m_t "
    "and +O(σ0/M) otherwise; ∇_{θ(m_t)}L_aux > 0, ∇_{θ(m)}L_aux < 0 (L415–419, L462).",
    "Primary: any signal v_n, as printed. Reading: v_n = v_{n_t}, the arriving task's own signal "
    "with no noise columns. Exact instance M = 2, d = 2, equal gates, positive coefficient.",
)
def check_step_signs(ctx: CheckContext) -> Outcome:
    v_arr = sp.Matrix([1, 0])
    v_other = sp.Matrix([-1, 0])
    steps = _gate_step(2, [0, 0], v_arr, 0, sp.Integer(1))
    own = [(st.T * v_arr)[0] for st in steps]
    other = [(st.T * v_other)[0] for st in steps]
    any_ok = own[0] < 0 < own[1] and other[0] < 0 < other[1]
    own_ok = own[0] < 0 < own[1]
    return _out(
        [_r("any-signal", "every v_n", any_ok,
            f"with v_other = −v_{{n_t}}, the selected expert's step has ⟨Δθ, v_other⟩ = "
            f"{other[0]} > 0 and the others' {other[1]} < 0: the signs flip",
            own=own, other=other),
         _r("own-signal", "v_n = v_{n_t}, noiseless", own_ok,
            f"⟨Δθ^{{(m_t)}}, v⟩ = {own[0]} < 0 < {own[1]}", own=own),
         _r("vector-sign", "∇L_aux > 0 as a vector", False,
            "∇_{θ(m_t)}L_aux ∝ π(1 − π)Σ_iX_i has the signs of Σ_iX_i's entries, which are mixed "
            "in general (e.g. Σ_iX_i = (1, −1))")],
        "1. $\\partial\\pi_{m_t}/\\partial\\theta^{(m)}=\\pi_{m_t}(1\\{m=m_t\\}-\\pi_m)S$ with "
        "$S=\\sum_iX_{t,i}$, so $\\Delta\\theta^{(m)}=-\\eta "
        "c\\,\\pi_{m_t}(1\\{m=m_t\\}-\\pi_m)S$, "
        "$c>0$.\n2. $\\langle\\Delta\\theta^{(m)},v_n\\rangle$ carries the sign of "
        "$\\langle S,v_n\\rangle$, which is negative for signals pointing away from "
        "$v_{n_t}$ (Appendix A.2's Gaussian signals have inner products of both signs).\n"
        "3. For $v_n=v_{n_t}$ and no noise the stated signs hold.",
    )


@_claim(
    "cl.lemma7.step-size", [456, 458], ["003-109"],
    "‖θ_{t+1}^{(m_t)} − θ_t^{(m_t)}‖∞ = O(σ0^0.5 η)·(π(1 − π)Σ_iX_{t,i}) = O(σ0) (L456–458).",
    "Primary: the exponent algebra with η = σ0^0.5 and π(1−π) ≤ 1/4, ‖X_t‖∞ = O(1). Reading: "
    "its premise ‖ηαM f/t‖ = O(σ0^0.5η) for every t ≤ T1.",
)
def check_step_size(ctx: CheckContext) -> Outcome:
    row = _order("sigma0^0.5*eta", s0**HALF * PAPER_ETA, sp.Integer(1), "O")
    premise = _order("alpha*M*f/t at t=1, f=1", alpha * M_ * s0**0, HALF, "O")
    return _out(
        [_r("exponents", "O(σ0^0.5 η)·O(1) with η = σ0^0.5", row["holds"],
            "exponent 0.5 + 0.5 = 1", row=row),
         _r("premise", "αM f/t = O(σ0^0.5) for all t ≤ T1", premise["holds"],
            "at t = 1, f = 1 the coefficient is αM = Θ(1)", row=premise)],
        "1. $\\sigma_0^{0.5}\\eta=\\sigma_0$ with $\\eta=\\sigma_0^{0.5}$, and "
        "$\\pi(1-\\pi)\\le\\tfrac14$, $\\|S\\|_\\infty=O(1)$: the product is $O(\\sigma_0)$.\n"
        "2. The factor $\\sigma_0^{0.5}$ stands for $\\alpha Mf/t$, which is $\\Theta(1)$ in the "
        "first rounds; it is $\\le\\alpha\\sigma_0^{0.5}$ only from $t\\ge T_1$ on.",
    )


@_claim(
    "cl.lemma7.softmax-product", [460], ["003-110"],
    "π_{m_t}(X_t, Θ_t)·π_m(X_t, Θ_t) = O(1/M) for m ≠ m_t (L460).",
    "Primary: for every gate state (all h). Reading: near-uniform gates, |h_m − h_m'| ≤ Δ for "
    "all pairs, where π_m ≤ e^Δ/M gives the product ≤ e^{2Δ}/M².",
)
def check_softmax_product(ctx: CheckContext) -> Outcome:
    rows = []
    for Mv in (2, 10, 100):
        h = [0, 0] + [-30] * (Mv - 2)
        Z = sum(sp.exp(x) for x in h)
        prod = sp.exp(h[0]) * sp.exp(h[1]) / Z**2
        rows.append({"M": Mv, "product": float(sp.N(prod, 15)),
                     "times_M": float(sp.N(prod * Mv, 15))})
    ok = rows[-1]["times_M"] < rows[0]["times_M"] * 2
    D = sp.Symbol("Delta", nonnegative=True)
    return _out(
        [_r("all-gates", "every Θ_t", ok,
            "two leading experts with equal gates keep π_1π_2 ≈ 1/4 for every M, so "
            "M·π_1π_2 grows like M/4", rows=rows),
         _r("near-uniform", "|h_m − h_m'| ≤ Δ", True,
            "π_m = e^{h_m}/Σe^{h_k} ≤ e^Δ/M, so the product ≤ e^{2Δ}/M² = O(1/M)",
            bound=sp.exp(2 * D) / M_**2)],
        "1. $\\pi_{m_t}\\pi_m\\le\\pi_{m_t}(1-\\pi_{m_t})\\le\\tfrac14$, attained in the limit "
        "by two dominant experts, independent of $M$.\n2. When all gate outputs are within "
        "$\\Delta$ (the exploration phase starts at $\\Theta_0=0$), $\\pi\\le e^\\Delta/M$.",
    )


@_claim(
    "cl.lemma8.epsilon-order", [468, 472, 474], ["003-40"],
    "From P(|f_{T1}^{(m)} − 1/M| ≤ ε ∀m) ≥ 1 − 2M exp(−2ε²T1), Lemma 8 gets ε = O(η^0.5 M^-1) "
    "(L474).",
    "Solve 2M exp(−2ε²T1) = δ for ε with T1 = M/η and fixed δ ∈ (0, 1); compare the growth in M "
    "with η^0.5/M (σ0, η fixed, M → ∞).",
)
def check_lemma8_epsilon(ctx: CheckContext) -> Outcome:
    eps, dl = sp.symbols("epsilon delta", positive=True)
    T1 = M_ / eta
    eq = sp.Eq(2 * M_ * sp.exp(-2 * eps**2 * T1), dl)
    sol = [x for x in sp.solve(eq, eps) if x.is_positive is not False]
    e = sol[0]
    ratio = sp.limit(e / (sp.sqrt(eta) / M_), M_, sp.oo)
    return _out(
        [_r("hoeffding-solved", "ε solving 2M e^{−2ε²T1} = δ, T1 = M/η", ratio != sp.oo,
            f"ε = {e}; ε/(η^0.5/M) → {ratio} as M → ∞", epsilon=e)],
        "1. $2Me^{-2\\varepsilon^2T_1}=\\delta$ gives "
        "$\\varepsilon=\\sqrt{\\eta\\ln(2M/\\delta)/(2M)}$.\n"
        "2. That is $\\Theta(\\eta^{0.5}M^{-0.5}\\sqrt{\\ln M})$, larger than "
        "$\\eta^{0.5}M^{-1}$ by "
        "$\\sqrt{M\\ln M}$.\n3. Hoeffding also needs independent rounds; the routing indicators "
        "depend on the history, so the first inequality is itself unproved.",
    )


@_claim(
    "cl.lemma8.symmetry", [466], ["003-41"],
    "By symmetry, E[f_{T1}^{(m)}] = 1/M for every expert m (L466).",
    "Algorithm 1 starts from Θ_0 = 0 and w_0^{(m)} = 0 for all experts and draws the noise r "
    "i.i.d., so the law of the routing is invariant under relabelling experts; with Σ_m f = 1 "
    "(symbolic) each mean is 1/M.",
)
def check_lemma8_symmetry(ctx: CheckContext) -> Outcome:
    Mv = 4
    L = sp.symbols(f"L1:{Mv + 1}", nonnegative=True)
    T1 = sum(L)
    total = sp.simplify(sum(x / T1 for x in L))
    return _out(
        [_r("exchangeable", "identical initialisation, i.i.d. noise, ties of probability 0",
            total == 1, "Σ_m f_m = 1 for every history; exchangeability makes the M means "
            "equal, hence 1/M", sum_f=total)],
        "1. $\\sum_m f^{(m)}_{T_1}=\\sum_m L^{(m)}_{T_1}/T_1=1$ (SymPy).\n"
        "2. Permuting expert labels maps a run to a run with the same probability (same start, "
        "i.i.d. noise, argmax ties null), so $E f^{(m)}$ is the same for every $m$: $1/M$.",
    )


@_claim(
    "cl.lemma8.delta-step", [474], ["003-42"],
    "Let δ = 1 − 2M exp(−2ε²T1); then with probability at least 1 − δ, |f_{T1} − 1/M| = "
    "O(ε) (L474).",
    "Primary: the inference from P ≥ 1 − 2M exp(−2ε²T1) = δ to P ≥ 1 − δ. Reading: δ is a typo "
    "for 2M exp(−2ε²T1).",
)
def check_lemma8_delta(ctx: CheckContext) -> Outcome:
    P = Fraction(3, 10)
    delta = Fraction(3, 10)  # the bound gives P >= delta
    return _out(
        [_r("as-printed", "P ≥ δ ⇒ P ≥ 1 − δ", P >= 1 - delta,
            "P = δ = 3/10 satisfies the bound but not P ≥ 1 − δ = 7/10",
            P=str(P), delta=str(delta)),
         _r("typo", "δ := 2M exp(−2ε²T1)", True, "then the bound reads P ≥ 1 − δ directly")],
        "1. With the printed definition, the inequality above reads $P\\ge\\delta$.\n"
        "2. $P\\ge\\delta$ implies $P\\ge1-\\delta$ only when $\\delta\\ge\\tfrac12$; "
        "counterexample $P=\\delta=0.3$.\n3. With $\\delta:=2Me^{-2\\varepsilon^2T_1}$ the step is "
        "right.",
    )


@_claim(
    "cl.lemma10.softmax-gap", [435, 488, 490, 492, 494, 498], ["003-44"],
    "Lemma 10: if δ_Θ = |h_m − h_m'| is near 0, |π_m − π_m'| = O(δ_Θ); otherwise "
    "|π_m − π_m'| = Ω(δ_Θ) (L435); via π_m − π_m' = π_m'(exp(h_m − h_m' − π_m') − 1) (L488).",
    "Primary: the Ω part for large δ_Θ (M = 2, h = (δ, 0)). Readings: the identity as printed "
    "(with '− π_m'' inside exp) and as π_m − π_m' = π_m'(e^{h_m − h_m'} − 1); the O part.",
)
def check_lemma10(ctx: CheckContext) -> Outcome:
    x = sp.Symbol("x", real=True)
    pi1 = sp.exp(x) / (sp.exp(x) + 1)
    pi2 = 1 / (sp.exp(x) + 1)
    printed = sp.simplify(pi1 - pi2 - pi2 * (sp.exp(x - pi2) - 1))
    fixed = sp.simplify(pi1 - pi2 - pi2 * (sp.exp(x) - 1))
    gap = sp.simplify(pi1 - pi2)
    lim = sp.limit(gap / x, x, sp.oo)
    small = sp.limit(gap / x, x, 0)
    K = sp.Symbol("K", positive=True)  # a third expert's gate output, δ_Θ = 1 fixed
    third = (sp.E - 1) / (sp.E + 1 + sp.exp(K))
    lim_third = sp.limit(third, K, sp.oo)
    return _out(
        [_r("omega-not-small", "|π_m − π_m'| ≥ c·δ_Θ whenever δ_Θ is not close to 0",
            lim != 0 and lim_third != 0,
            f"M = 2: |π_1 − π_2|/δ = tanh(δ/2)/δ → {lim} as δ → ∞; M = 3 with δ_Θ = 1 fixed "
            f"and a third gate output K: |π_1 − π_2| = (e − 1)/(e + 1 + e^K) → {lim_third}",
            limit=lim, bounded_gap_third_expert=third, bounded_gap_limit=lim_third),
         _r("identity-printed", "π_m − π_m' = π_m'(exp(h_m − h_m' − π_m') − 1)", printed == 0,
            "not an identity (residual ≠ 0)", residual=printed),
         _r("identity-fixed", "π_m − π_m' = π_m'(e^{h_m − h_m'} − 1)", fixed == 0, "identity"),
         _r("O-small", "|π_m − π_m'| = O(δ_Θ) near 0", small == sp.Rational(1, 2),
            f"ratio → {small}")],
        "1. $\\pi_m/\\pi_{m'}=e^{h_m-h_{m'}}$ gives the fixed identity; the printed "
        "'$-\\pi_{m'}$' inside the exponential breaks it.\n2. Softmax values lie in $[0,1]$, so "
        "$|\\pi_m-\\pi_{m'}|\\le1$ cannot be $\\Omega(\\delta_\\Theta)$ as $\\delta_\\Theta$ grows "
        "($\\tanh(\\delta/2)/\\delta\\to0$); and even for a fixed $\\delta_\\Theta=1$ a dominant "
        "third expert drives $|\\pi_m-\\pi_{m'}|$ to 0, since $\\pi_{m'}$ has no lower bound.\n"
        "3. Near 0, $|\\pi_1-\\pi_2|\\approx\\delta/2$.",
    )


@_claim(
    "cl.lemma10.lower-step", [498], ["003-46"],
    "|π_m − π_m'| > π_m'|h_m − h_m'| (L498).",
    "Primary: for every h (either sign of h_m − h_m'). Corrected: |π_m − π_m'| ≥ "
    "min(π_m, π_m')·|h_m − h_m'|.",
)
def check_lemma10_lower(ctx: CheckContext) -> Outcome:
    xv = sp.Integer(-1)
    lhs = abs(sp.exp(xv) - 1)  # |π_m − π_m'| / π_m' with h_m − h_m' = −1
    ok = bool(lhs > abs(xv))
    x = sp.Symbol("x", positive=True)
    mono = sp.simplify(sp.diff(sp.exp(x) - 1 - x, x))
    return _out(
        [_r("all-signs", "every h_m, h_m'", ok,
            f"h_m − h_m' = −1: |π_m − π_m'|/π_m' = 1 − e^-1 = {sp.N(lhs, 6)} < 1",
            ratio=sp.N(lhs, 15)),
         _r("corrected", "≥ min(π_m, π_m')·|h_m − h_m'|", True,
            "with x = |h_m − h_m'| and the smaller softmax as base, e^x − 1 ≥ x",
            derivative_of_gap=mono, origin="package")],
        "1. $|\\pi_m-\\pi_{m'}|=\\pi_{m'}|e^{x}-1|$ with $x=h_m-h_{m'}$.\n2. For $x<0$, "
        "$|e^x-1|=1-e^x<|x|$: the strict bound fails.\n3. Taking the smaller softmax value as "
        "base makes $x\\ge0$ and $e^x-1\\ge x$.",
    )


@_claim(
    "cl.lemma11.constant-step", [510, 512, 514], ["003-49"],
    "1 − N exp(−M/N) ≥ 1 − δ because M = Ω(N ln N/δ) (L510–512; and with K for M < N, L514).",
    "Primary: M ≥ c·N ln N/δ with an explicit constant c; the smallest c that works for every "
    "N ≥ 2 and δ ∈ (0, 1) is computed exactly (c* = 2/(e ln 2) ≈ 1.0615): c = 1 fails.",
)
def check_lemma11_constant(ctx: CheckContext) -> Outcome:
    Nv, dv = 2, 2 / math.e
    M_needed = Nv * math.log(Nv / dv)
    M_c1 = Nv * math.log(Nv) / dv
    cstar = 2 / (math.e * math.log(2))
    dl = sp.Symbol("delta", positive=True)
    g = dl * sp.log(2 / dl) / sp.log(2)
    crit = sp.solve(sp.diff(g, dl), dl)
    cmax = sp.simplify(g.subs(dl, crit[0]))
    return _out(
        [_r("explicit-constant", "M ≥ c·N ln N/δ with c ≥ 2/(e ln 2)", True,
            f"N e^{{−M/N}} ≤ δ ⟺ M ≥ N ln(N/δ) ≤ c*·N ln N/δ with c* = {cmax} ≈ {cstar:.4f}",
            c_star=cmax),
         _r("constant-1", "M ≥ N ln N/δ", M_c1 >= M_needed,
            f"N = 2, δ = 2/e: N ln N/δ = {M_c1:.4f} < N ln(N/δ) = {M_needed:.4f}",
            N=Nv, delta=dv)],
        "1. $Ne^{-M/N}\\le\\delta\\iff M\\ge N\\ln(N/\\delta)$.\n2. $N\\ln(N/\\delta)\\le cN\\ln N/"
        "\\delta$ for all $N\\ge2$ iff $c\\ge\\sup\\delta\\ln(N/\\delta)/\\ln N$, attained "
        "at $N=2$, "
        "$\\delta=2/e$: $c^*=2/(e\\ln2)$.\n3. So $\\Omega(\\cdot)$ with a constant $\\ge c^*$ "
        "justifies the step; the first inequality is `cl.lemma11.product-step`.",
    )


def _lemma12_instance() -> dict[str, Any]:
    w_n = sp.Matrix([1, 1, 1])
    X1 = sp.Matrix([[1], [0], [0]])
    X2 = sp.Matrix([[0], [1], [0]])
    P = lambda X: X * (X.T * X).inv() * X.T  # noqa: E731
    w1 = P(X1) * w_n  # from w_0 = 0 on task n
    w2 = w1 + P(X2) * (w_n - w1)  # task n again, same expert
    return {"w_after_first": list(w1), "w_after_second": list(w2),
            "update_sq_norm": ((w2 - w1).T * (w2 - w1))[0]}


@_claim(
    "cl.lemma12.zero-local-gradient", [441, 442, 518, 520], ["003-51"],
    "Lemma 12: a task routed to a correct expert gives ∇L_loc = 0 for every expert (M > N), "
    "and ‖∇L_loc‖∞ = O(σ0^1.5) (M < N).",
    "Primary (M > N): an expert that already learnt task n once receives task n again with new "
    "data; exact instance d = 3, s = 1. Reading M < N: ‖Δw‖∞ = O(σ0^1.5) gives "
    "‖∇L_loc‖ ∝ ‖Δw‖² = O(σ0^3), exponent algebra.",
)
def check_lemma12(ctx: CheckContext) -> Outcome:
    inst = _lemma12_instance()
    ok = inst["update_sq_norm"] == 0
    row = _order("||dw||^2", (s0 ** sp.Rational(3, 2)) ** 2, sp.Rational(3, 2), "O")
    return _out(
        [_r("M>N", "correct expert, same ground truth, new X_t", ok,
            f"w_n = (1,1,1), X_1 = e_1 then X_2 = e_2: the second update has ‖Δw‖² = "
            f"{inst['update_sq_norm']} ≠ 0, so L_loc and its gradient are non-zero", instance=inst),
         _r("M<N", "‖Δw‖∞ = O(σ0^1.5) ⇒ ‖∇L_loc‖ = O(σ0^1.5)", row["holds"],
            "the loss uses ‖Δw‖², exponent 3 ≥ 1.5", row=row)],
        "1. (5) leaves $w$ unchanged only if $X_t^\\top w_{t-1}=y_t$, i.e. $w_{t-1}-w_n\\perp"
        "\\operatorname{col}X_t$; after one visit $w_{t-1}=P_1w_n\\neq w_n$ in the "
        "over-parameterised regime.\n2. A fresh $X_t$ then updates the expert, so "
        "$L_{loc}=\\pi_{m_t}\\|\\Delta w\\|^2>0$ with non-zero gradient (Lemma 3's premise fails "
        "the same way, see `cl.lemma3.unchanged`).\n3. The $M<N$ order is loose but true.",
    )


@_claim(
    "cl.lemma12.projection-sup-norm", [520], ["003-53"],
    "‖X_t(X_tᵀX_t)⁻¹X_tᵀ u‖∞ = O(‖u‖∞) because ‖X_t‖∞ = O(1) (L520).",
    "Primary: O(‖u‖∞) with d fixed (constant √d), for every orthogonal projection. Reading: "
    "with constant 1 (non-expansive in ℓ∞).",
)
def check_projection_sup(ctx: CheckContext) -> Outcome:
    one = sp.ones(3, 1)
    P = sp.eye(3) - one * one.T / 3
    u = sp.Matrix([1, -1, -1])
    Pu = P * u
    ratio = max(abs(x) for x in Pu) / max(abs(x) for x in u)
    return _out(
        [_r("constant-sqrt-d", "‖Pu‖∞ ≤ √d‖u‖∞", bool(ratio <= sp.sqrt(3)),
            "‖Pu‖∞ ≤ ‖Pu‖₂ ≤ ‖u‖₂ ≤ √d‖u‖∞ for every orthogonal projection; ‖X_t‖∞ plays no role",
            instance_ratio=ratio, sqrt_d=sp.sqrt(3)),
         _r("constant-1", "‖Pu‖∞ ≤ ‖u‖∞", ratio <= 1,
            f"P = I − 11ᵀ/3, u = (1, −1, −1): ‖Pu‖∞ = {max(abs(x) for x in Pu)} > 1",
            Pu=list(Pu))],
        "1. Orthogonal projections are non-expansive in $\\ell_2$, so $\\|Pu\\|_\\infty\\le"
        "\\sqrt d\\|u\\|_\\infty$.\n2. They are not in $\\ell_\\infty$ (counterexample ratio 4/3).",
    )


@_claim(
    "cl.proofs.order-inference", [390, 392, 524, 544, 652, 658, 660], ["003-55"],
    "The proofs turn bounds of one direction into the other: Lemma 5 writes '≤ |O(σ0) + …| = "
    "Ω(σ0)' and '≥ |O(σ0) + …| = O(σ0)' (L390, L392); from |⟨θ, v_n − v_n'⟩| = O(σ0^0.5) they "
    "conclude |π_m(X_n) − π_m(X_n')| = Ω(σ0^0.5) (L524, L544); from π_m' − π_m̄ = O(σ0^0.75) a "
    "strict preference (L652); and O(σ0^0.75) + Θ(σ0^0.75) = Θ(σ0^0.75) (L658).",
    "Under the definitions of L43 (x = O(y): x < c1|y|; Ω: x > c2|y|; Θ: both): exact "
    "counterexamples to each inference pattern.",
)
def check_order_inference(ctx: CheckContext) -> Outcome:
    rows = [
        {"step": "O ⇒ Ω (L524, L544)", "counterexample": "x = 0 (θ_0 = 0 gives h-gap 0)",
         "x_is_O": True, "x_is_Omega": False},
        {"step": "O ⇒ positive gap (L652)", "counterexample": "π_m' − π_m̄ = −σ0^0.75",
         "x_is_O": True, "x_is_positive": False},
        {"step": "O + Θ = Θ (L658)", "counterexample": "(−y) + y = 0 with y = Θ(σ0^0.75)",
         "sum_is_Theta": False},
    ]
    return _out(
        [_r("L43-definitions", "O, Ω, Θ as defined at L43", False,
            "an upper bound O(·) allows 0 or negative values, so none of the three inferences "
            "follows", rows=rows)],
        "1. $x=O(y)$ only says $x<c_1|y|$; $x=0$ satisfies it, but not $x>c_2|y|$.\n"
        "2. The same $x=0$ (or a negative $x$) defeats a strict preference.\n"
        "3. $O(y)+\\Theta(y)$ can be $0$: $(-y)+y$.",
    )


@_claim(
    "cl.lemma13.exponent-step", [530, 532], ["003-56"],
    "O(σ0η^-0.5) + O(η^-1σ0^-0.25)·O(σ0^1.5) = O(σ0η^-0.5) (L530).",
    "Primary: η = σ0^0.5 (L382). Reading η = σ0^a for a > 0.5 (allowed by 'η = O(σ0^0.5)', L552); "
    "the factor M of t1 = ⌈η^-1σ0^-0.25 M⌉ is treated as constant.",
)
def check_lemma13_exponent(ctx: CheckContext) -> Outcome:
    rows = []
    for a in (HALF, sp.Integer(1)):
        e = s0**a
        lhs = e**-1 * s0 ** sp.Rational(-1, 4) * s0 ** sp.Rational(3, 2)
        rows.append(_order(f"eta=sigma0^{a}", lhs, exponent(s0 * e ** (-HALF)), "O"))
    return _out(
        [_r("eta=sigma0^0.5", "η = σ0^0.5", rows[0]["holds"], "exponents 0.75 and 0.75",
            row=rows[0]),
         _r("eta=sigma0^1", "η = σ0 (η = O(σ0^0.5))", rows[1]["holds"],
            "exponent 0.25 < 0.5: the router-phase drift dominates", row=rows[1])],
        "1. $\\eta^{-1}\\sigma_0^{-0.25}\\cdot\\sigma_0^{1.5}=\\eta^{-1}\\sigma_0^{1.25}$; "
        "its ratio "
        "to $\\sigma_0\\eta^{-0.5}$ is $\\eta^{-0.5}\\sigma_0^{0.25}$.\n2. Bounded iff "
        "$\\eta=\\Omega(\\sigma_0^{0.5})$: true at the paper's choice, false for smaller $\\eta$.",
    )


# ---------------------------------------------------------------------------------------
# Proposition 1's final proof (E.8)
# ---------------------------------------------------------------------------------------


@_claim(
    "cl.prop1.proof-contradiction", [540, 546], ["003-57"],
    "Proof of Prop. 1 (E.8): suppose m ∈ M_n, m' ∈ M_n' with π_m(X_n) > π_m'(X_n) and "
    "π_m'(X_n') > π_m(X_n'); 'this is equivalent to' π_m(X_n) > π_m(X_n') > π_m'(X_n') > "
    "π_m'(X_n) (eq. 36) (L546).",
    "Exact: the supposition is (34) itself, not its negation; and the chain (36) is compared with "
    "the pair of inequalities on rational values.",
)
def check_prop1_contradiction(ctx: CheckContext) -> Outcome:
    a, b, c, d = (Fraction(5, 10), Fraction(2, 10), Fraction(4, 10), Fraction(1, 10))
    pair = a > d and c > b
    chain = a > b > c > d
    return _out(
        [_r("equivalence", "(π_m(X_n) > π_m'(X_n) ∧ π_m'(X_n') > π_m(X_n')) ⇔ (36)", pair == chain,
            "values (a, b, c, d) = (0.5, 0.2, 0.4, 0.1) satisfy the pair but not the chain; the "
            "chain's b > c even contradicts the pair's c > b",
            values=[str(x) for x in (a, b, c, d)]),
         _r("supposition", "the supposition negates (34)", False,
            "it repeats (34) word for word, so a contradiction from it would refute (34)")],
        "1. Let $a=\\pi_m(X_n),b=\\pi_m(X_{n'}),c=\\pi_{m'}(X_{n'}),d=\\pi_{m'}(X_n)$.\n"
        "2. The supposition is $a>d\\wedge c>b$, which is exactly (34).\n"
        "3. (36) is $a>b>c>d$, which implies $b>c$: it is incompatible with the supposition.",
    )


@_claim(
    "cl.prop1.inner-product-step", [542], ["003-58"],
    "|⟨θ_t^{(m)}, v_n − v_n'⟩| = ‖θ_t^{(m)}‖∞·‖v_n − v_n'‖∞ (L542).",
    "Primary: the equality. Readings: '≤' with constant 1 and '≤ d·‖θ‖∞‖Δv‖∞' (Hölder).",
)
def check_inner_product(ctx: CheckContext) -> Outcome:
    th_, dv = sp.Matrix([1, 0]), sp.Matrix([0, 1])
    th2, dv2 = sp.Matrix([1, 1]), sp.Matrix([1, 1])
    return _out(
        [_r("equality", "=", False, "θ = e_1, Δv = e_2: 0 ≠ 1",
            lhs=(th_.T * dv)[0], rhs=1),
         _r("le-1", "≤ ‖θ‖∞‖Δv‖∞", False, "θ = Δv = (1, 1): 2 > 1", lhs=(th2.T * dv2)[0]),
         _r("holder", "≤ d‖θ‖∞‖Δv‖∞", True, "|⟨a, b⟩| ≤ ‖a‖₁‖b‖∞ ≤ d‖a‖∞‖b‖∞")],
        "1. The equality fails for orthogonal vectors.\n2. Hölder gives "
        "$|\\langle a,b\\rangle|\\le\\|a\\|_1\\|b\\|_\\infty\\le "
        "d\\|a\\|_\\infty\\|b\\|_\\infty$, an "
        "upper bound only (it cannot feed the $\\Omega$ of eq. (35)).",
    )


@_claim(
    "cl.prop1.eta-step", [552, 382], ["003-59"],
    "σ0η^-0.5 < σ0^0.5 'given η = O(σ0^0.5)' (L552).",
    "Primary: the inference from η = O(σ0^0.5). Reading: the paper's choice η = σ0^0.5 (L382).",
)
def check_eta_step(ctx: CheckContext) -> Outcome:
    sig = Fraction(1, 16)
    e_small = sig**2  # eta = sigma0^2 is O(sigma0^0.5)
    lhs = sig / math.sqrt(e_small)
    paper = _order("sigma0*eta^-0.5 vs sigma0^0.5", s0 * PAPER_ETA ** (-HALF) / s0**HALF,
                   sp.Integer(0), "O")
    return _out(
        [_r("from-O", "η = O(σ0^0.5) ⇒ σ0η^-0.5 < σ0^0.5", lhs < math.sqrt(sig),
            f"σ0 = 1/16, η = σ0² = 1/256: σ0η^-0.5 = {lhs} > σ0^0.5 = 0.25",
            sigma0="1/16", eta="1/256"),
         _r("eta=sigma0^0.5", "η = σ0^0.5", True,
            "σ0η^-0.5 = σ0^0.75 < σ0^0.5 for σ0 < 1", row=paper)],
        "1. $\\sigma_0\\eta^{-0.5}<\\sigma_0^{0.5}\\iff\\eta>\\sigma_0$: it needs a lower bound "
        "on $\\eta$, but $O(\\cdot)$ is an upper bound.\n2. At $\\eta=\\sigma_0^{0.5}$ it holds.",
    )


@_claim(
    "cl.prop1.m-lt-n-projection", [558], ["003-60"],
    "M < N: w_t^{(m_t)} − w^{(m)} = (I − P_t)⋯(I − P_{T1+1})(w_{T1}^{(m)} − w^{(m)}) with w^{(m)} "
    "the expert's minimum-norm offline solution (L558).",
    "The one-step identity requires P_t w_{n_t} = P_t w^{(m)}: exact instance d = 2, s = 1 with "
    "two ground truths of the same cluster seen through the same direction.",
)
def check_m_lt_n_projection(ctx: CheckContext) -> Outcome:
    X = sp.Matrix([[1], [0]])
    P = X * (X.T * X).inv() * X.T
    wa, wb = sp.Matrix([0, 0]), sp.Matrix([sp.Rational(1, 10), 0])
    w_prev = sp.Matrix([0, 0])
    resid = []
    for w_star in (wa, wb):
        rows = []
        for w_task in (wa, wb):
            w_new = w_prev + P * (w_task - w_prev)
            rows.append(list((w_new - w_star) - (sp.eye(2) - P) * (w_prev - w_star)))
        resid.append(rows)
    ok = any(all(all(x == 0 for x in row) for row in rows) for rows in resid)
    return _out(
        [_r("identity", "one w^{(m)} for all tasks of the cluster", ok,
            "for either choice of w^{(m)}, one of the two tasks leaves residual "
            "P_t(w_{n_t} − w^{(m)}) ≠ 0", residuals=resid)],
        "1. (5) gives $w_t-w^*=(I-P_t)(w_{t-1}-w^*)+P_t(w_{n_t}-w^*)$.\n"
        "2. The seed drops $P_t(w_{n_t}-w^*)$, i.e. assumes $X_t^\\top w^*=y_t$ for every task of "
        "the cluster; two distinct ground truths seen along the same direction cannot share "
        "such a $w^*$.",
    )


# ---------------------------------------------------------------------------------------
# Proposition 2 (Appendix F) and Proposition 3 (Appendix G)
# ---------------------------------------------------------------------------------------


@_claim(
    "cl.lemma14.aux-coefficient", [586, 616], ["003-66"],
    "αM/t ≤ σ0 for every t ∈ {T1 + 1, …, t1} (L586, L616).",
    "Primary: the paper's parameter choice η = σ0^0.5 (T1 = ⌈M/η⌉, t1 = ⌈η^-1σ0^-0.25M⌉) for "
    "every σ0; exact counterexample. Reading: Appendix A.2's σ0 = 0.4, η = α = 0.5, M = 20.",
)
def check_aux_coefficient(ctx: CheckContext) -> Outcome:
    def case(sig: Fraction, et: Fraction, al: Fraction, Mv: int) -> dict[str, Any]:
        T1 = math.ceil(Mv / et)
        t = T1 + 1
        val = al * Mv / t
        return {"sigma0": str(sig), "eta": str(et), "alpha": str(al), "M": Mv, "t": t,
                "alpha_M_over_t": str(val), "holds_at_T1+1": val <= sig}
    small = case(Fraction(1, 100), Fraction(1, 10), Fraction(1, 2), 20)
    a2 = case(Fraction(2, 5), Fraction(1, 2), Fraction(1, 2), 20)
    return _out(
        [_r("eta=sigma0^0.5", "η = σ0^0.5, α = 1/2, M = 20, σ0 = 1/100", small["holds_at_T1+1"],
            f"at t = T1 + 1 = {small['t']}: αM/t = {small['alpha_M_over_t']} > σ0 = 1/100",
            case=small),
         _r("A.2", "σ0 = 0.4, η = α = 0.5, M = 20", a2["holds_at_T1+1"],
            "αM/t ≤ 10/41 < 0.4 on the whole range", case=a2)],
        "1. $\\alpha M/t\\le\\sigma_0\\iff t\\ge\\alpha M/\\sigma_0$.\n2. With "
        "$\\eta=\\sigma_0^{0.5}$, "
        "$t\\le t_1\\approx\\sigma_0^{-0.75}M<\\alpha M/\\sigma_0$ once $\\sigma_0<\\alpha^4$: the "
        "bound fails on the whole router phase for small $\\sigma_0$ (it is the exponent "
        "mismatch of `cl.lemma5.aux-gradient-order`).\n3. At A.2's constants it holds.",
    )


@_claim(
    "cl.prop2.exploration-move", [640, 642], ["003-69"],
    "⟨θ^{(M')}_{T1+1} − θ^{(M')}_{t1}, v_n⟩ ≤ O(σ0)·η·(t1 − T1) = O(σ0^0.75) (L640–642).",
    "Exponent algebra with η = σ0^0.5, t1 − T1 ≤ t1 = η^-1σ0^-0.25 M, M fixed.",
)
def check_exploration_move(ctx: CheckContext) -> Outcome:
    row = _order("sigma0*eta*t1", s0 * PAPER_ETA * (M_ / PAPER_ETA) * s0 ** sp.Rational(-1, 4),
                 sp.Rational(3, 4), "O")
    return _out(
        [_r("exponents", "O(σ0)·η·t1", row["holds"], "exponent 1 − 0.25 = 0.75 (times M)",
            row=row)],
        "$\\sigma_0\\cdot\\eta\\cdot\\eta^{-1}\\sigma_0^{-0.25}M=M\\sigma_0^{0.75}$.",
    )


@_claim(
    "cl.prop2.theta-gap-order", [646, 648, 678], ["003-70"],
    "|θ^{(M')}_{t1} − θ^{(m')}_{t1}|∞ = η‖∇L_aux^{t1−1}‖ = O(σ0^1.75), using ∇L_aux^{t1−1} = "
    "O(σ0^1.25) and η = O(σ0^0.5) (L646–648, L678).",
    "η = σ0^0.5; the aux-gradient coefficient at round t1 − 1 ≈ t1 = η^-1σ0^-0.25M is "
    "αM f/t with f = Θ(1/M) and ∂π/∂θ = Θ(1/M)·O(1) (M fixed).",
)
def check_theta_gap_order(ctx: CheckContext) -> Outcome:
    t1 = M_ / PAPER_ETA * s0 ** sp.Rational(-1, 4)
    grad = alpha * M_ / t1 * (1 / M_) * (1 / M_)
    premise = _order("grad L_aux at t1", grad, sp.Rational(5, 4), "O")
    step = _order("eta * grad", PAPER_ETA * grad, sp.Rational(7, 4), "O")
    algebra = _order("eta*sigma0^1.25", PAPER_ETA * s0 ** sp.Rational(5, 4), sp.Rational(7, 4), "O")
    return _out(
        [_r("premise", "∇L_aux^{t1−1} = O(σ0^1.25)", premise["holds"],
            "αM f/t1·∂π = Θ(σ0^0.75): exponent 0.75 < 1.25", row=premise),
         _r("conclusion", "η‖∇L_aux‖ = O(σ0^1.75)", step["holds"],
            "η·Θ(σ0^0.75) = Θ(σ0^1.25): exponent 1.25 < 1.75", row=step),
         _r("algebra-only", "σ0^0.5·σ0^1.25 = σ0^1.75", algebra["holds"], "exponent sum",
            row=algebra)],
        "1. $t_1=\\eta^{-1}\\sigma_0^{-0.25}M=\\sigma_0^{-0.75}M$, so $\\alpha M/t_1=\\alpha"
        "\\sigma_0^{0.75}$.\n2. With $f,\\partial\\pi=\\Theta(1/M)$ the aux gradient is "
        "$\\Theta(\\sigma_0^{0.75})$, not $O(\\sigma_0^{1.25})$; one step moves $\\theta$ by "
        "$\\Theta(\\sigma_0^{1.25})$, not $O(\\sigma_0^{1.75})$.\n3. The exponent sum itself is "
        "right.",
    )


@_claim(
    "cl.prop2.gradient-difference", [654, 656], ["003-71"],
    "∇_{θ(m̄)}L_task − ∇_{θ(m')}L_task = αM/t·f·π_{m_t}(π_{m'} − π_{m̄})·Σ_iX_{t,i} ≥ 0 (L654).",
    "Primary: the formula for m̄, m' ≠ m_t with ∇L_loc = 0 (M = 3, symbolic gates, scalar "
    "input per coordinate). Reading: '≥ 0' for the vector.",
)
def check_gradient_difference(ctx: CheckContext) -> Outcome:
    h = sp.symbols("h1:4", real=True)
    c = sp.Symbol("c", positive=True)  # αM f/t
    S = sp.Matrix(sp.symbols("S1:3", real=True))
    Z = sum(sp.exp(x) for x in h)
    pi = [sp.exp(x) / Z for x in h]
    grads = [c * pi[0] * ((1 if m == 0 else 0) - pi[m]) * S for m in range(3)]
    diff = (grads[2] - grads[1]).applyfunc(sp.simplify)  # m̄ = 3rd, m' = 2nd
    formula = (c * pi[0] * (pi[1] - pi[2]) * S).applyfunc(sp.simplify)
    ok = (diff - formula).applyfunc(sp.simplify) == sp.zeros(2, 1)
    return _out(
        [_r("formula", "m̄, m' ≠ m_t, ∇L_loc = 0", ok, "SymPy identity"),
         _r("vector-sign", "the difference ≥ 0 entrywise", False,
            "with π_{m'} > π_{m̄} the difference has the signs of Σ_iX_{t,i} = (1, −1): mixed")],
        "1. $\\nabla_{\\theta^{(m)}}L_{aux}=c\\,\\pi_{m_t}(1\\{m=m_t\\}-\\pi_m)S$.\n2. For "
        "$m,m'\\ne m_t$ the difference is $c\\,\\pi_{m_t}(\\pi_{m'}-\\pi_{\\bar m})S$ (SymPy).\n"
        "3. It is a vector along $S$; '$\\ge0$' holds only along directions with "
        "$\\langle S,\\cdot\\rangle\\ge0$.",
    )


@_claim(
    "cl.prop2.overtake-step", [664, 666, 668, 670, 672], ["003-73"],
    "For t ∈ [t1, t2]: |h_m(X_{t2}) − h_m(X_{t1})| = |∇L_aux|·(t2 − t1)·η = O(σ0^0.5) > "
    "Θ(σ0^0.75) = |h_{M'} − h_m| at t1, so some expert m overtakes M' (L672).",
    "Primary: the inference 'O(σ0^0.5) > Θ(σ0^0.75)'. Reading: the exponent product "
    "σ0^1.25·η^-1σ0^-0.75·η = σ0^0.5 (η = σ0^0.5).",
)
def check_overtake_step(ctx: CheckContext) -> Outcome:
    t2 = M_ / PAPER_ETA * s0 ** sp.Rational(-3, 4)
    row = _order("grad*t2*eta", s0 ** sp.Rational(5, 4) * t2 * PAPER_ETA, HALF, "O")
    return _out(
        [_r("inference", "an O(σ0^0.5) quantity exceeds a Θ(σ0^0.75) one", False,
            "O(·) is an upper bound: the drift can be 0 (e.g. if m is never updated along v_n), "
            "so it need not exceed the Θ(σ0^0.75) gap"),
         _r("exponents", "σ0^1.25·t2·η", row["holds"], "exponent 1.25 − 0.75 = 0.5 (times M)",
            row=row)],
        "1. $\\sigma_0^{1.25}\\cdot\\eta^{-1}\\sigma_0^{-0.75}M\\cdot\\eta=M\\sigma_0^{0.5}$.\n"
        "2. '$>$' needs a lower bound on the drift ($\\Omega(\\sigma_0^{0.5})$); the proof only "
        "has an upper bound.",
    )


@_claim(
    "cl.prop3.noise-inequality", [697], ["003-78"],
    "h_m + r_m − (h_m' + r_m') ≥ h_m − h_m' + r_m' (L697).",
    "Primary: for all r_m, r_m' ∈ [0, λ]. Corrected: ≥ h_m − h_m' − λ.",
)
def check_noise_inequality(ctx: CheckContext) -> Outcome:
    lam_v = Fraction(3, 10)
    rm, rmp = Fraction(0), lam_v / 2
    ok = rm - rmp >= rmp
    return _out(
        [_r("all-noise", "r_m, r_m' ∈ [0, λ]", ok,
            f"the inequality is r_m ≥ 2r_m'; r_m = 0, r_m' = λ/2 = {rmp} violates it",
            r_m=str(rm), r_m_prime=str(rmp)),
         _r("corrected", "≥ h_m − h_m' − λ", True,
            "r_m − r_m' ≥ −λ; with the Θ(σ0^0.75) gate gap and λ = σ0^1.25 the gap stays "
            "positive for small σ0", origin="package")],
        "1. Subtracting $h_m-h_{m'}$ leaves $r_m-r_{m'}\\ge r_{m'}$, i.e. $r_m\\ge2r_{m'}$, "
        "false for $r_m=0<r_{m'}$.\n2. Since $r\\in[0,\\lambda]$, $r_m-r_{m'}\\ge-\\lambda$.",
    )


@_claim(
    "cl.prop3.noise-order", [697, 699, 705], ["003-79"],
    "r_t^{(m)} = Θ(σ0^1.25) for r_t^{(m)} ~ U[0, λ] (L699, L705).",
    "Θ of L43 needs c1λ < r: its probability under U[0, λ] is 1 − c1 < 1 for every c1 > 0. "
    "Corrected: r ≤ λ = O(σ0^1.25).",
)
def check_noise_order(ctx: CheckContext) -> Outcome:
    c1 = sp.Symbol("c_1", positive=True)
    p_fail = sp.Piecewise((c1, c1 < 1), (1, True))
    return _out(
        [_r("Theta", "r = Θ(λ) for every draw", False,
            "P(r ≤ c1·λ) = c1 > 0 for every c1 ∈ (0, 1): r is not bounded below by c1λ",
            failure_probability=p_fail),
         _r("O", "r = O(λ)", True, "r ≤ λ always", origin="package")],
        "1. For $r\\sim U[0,\\lambda]$, $P(r\\le c_1\\lambda)=c_1$.\n2. So no $c_1>0$ gives "
        "$r>c_1\\lambda$ surely; only $r\\le\\lambda$ holds.",
    )


@_claim(
    "cl.appendix-a4.gamma-cases", [260, 262, 264], ["003-100"],
    "With λ = σ0^1.25 and σ0 = 0.4, Γ ∈ {σ0^1.25, σ0^1.5} are the cases Γ ≤ λ among Γ ∈ "
    "{σ0^0.75, σ0, σ0^1.25, σ0^1.5} (L262–264).",
    "Exact comparison of σ0^a with σ0^1.25 at σ0 = 2/5.",
)
def check_gamma_cases(ctx: CheckContext) -> Outcome:
    sig = sp.Rational(2, 5)
    lam_v = sig ** sp.Rational(5, 4)
    exps = [sp.Rational(3, 4), sp.Integer(1), sp.Rational(5, 4), sp.Rational(3, 2)]
    le = [str(a) for a in exps if sp.simplify(sig**a - lam_v) <= 0 or sig**a == lam_v]
    ok = le == ["5/4", "3/2"]
    return _out(
        [_r("exact", "σ0 = 2/5", ok, f"Γ = σ0^a ≤ λ exactly for a ∈ {le}", cases=le)],
        "$\\sigma_0<1$, so $\\sigma_0^a\\le\\sigma_0^{1.25}\\iff a\\ge1.25$.",
    )


# ---------------------------------------------------------------------------------------
# Section 5: discussion of Theorems 1-2 and their proofs (Appendices H-J)
# ---------------------------------------------------------------------------------------

A_, B_ = sp.symbols("A B", nonnegative=True)  # A = Σ‖w_n‖²/N, B = Σ gaps/N²
r_ = sp.Symbol("r", positive=True)


@_claim(
    "cl.prop4.gap-sign", [177], ["003-37"],
    "By Proposition 4, larger gaps ‖w_n' − w_n‖² make E[F_t] and E[G_T] of the single expert "
    "worse (L177).",
    "The coefficients of the gap sum in (17) and (18) for 0 < r < 1, τ < t: (r^τ − r^t)/N² and "
    "(1 − r^T)/N², with Σ‖w_n‖² held fixed.",
)
def check_prop4_gap_sign(ctx: CheckContext) -> Outcome:
    rows = []
    for rv in (sp.Rational(2, 5), sp.Rational(9, 10)):
        rows.append({"r": str(rv), "coef_F_tau1_t2": str(rv - rv**2), "coef_G_T3": str(1 - rv**3)})
    ok = all(sp.Rational(x["coef_F_tau1_t2"]) > 0 and sp.Rational(x["coef_G_T3"]) > 0 for x in rows)
    return _out(
        [_r("coefficients", "0 < r < 1, τ < t", ok,
            "r^τ − r^t > 0 and 1 − r^T > 0: both forms increase with the gap sum", rows=rows)],
        "For $0<r<1$, $r^\\tau>r^t$ when $\\tau<t$ and $r^T<1$, so the gap coefficients are "
        "positive. (Whether (17)-(18) are right is `cl.prop4.*`.)",
    )


@_claim(
    "cl.thm1.coefficient-signs", [195], ["003-82"],
    "In (19) the coefficient of Σ‖w_n‖² is < 0 and that of the gap sum > 0 because "
    "L_t^{(m_τ)} ≥ L_τ^{(m_τ)} and r < 1 (L195).",
    "Primary: strict signs for every τ < t. Reading: non-strict signs.",
)
def check_coefficient_signs(ctx: CheckContext) -> Outcome:
    rv = sp.Rational(2, 5)
    Lt, Ltau = 3, 3  # expert m_τ not chosen again between τ and t
    coef_a = rv**Lt - rv**Ltau
    return _out(
        [_r("strict", "coefficients strictly < 0 and > 0", coef_a < 0,
            "when m_τ is not selected again before t, L_t = L_τ and both coefficients are 0",
            L_t=Lt, L_tau=Ltau, coefficient=coef_a),
         _r("weak", "≤ 0 and ≥ 0", True, "L_t ≥ L_τ and 0 < r < 1 give r^{L_t} ≤ r^{L_τ}")],
        "$r^{L_t}-r^{L_\\tau}\\le0$ with equality iff $L_t=L_\\tau$, which happens whenever "
        "expert $m_\\tau$ receives no task in $(\\tau,t]$.",
    )


@_claim(
    "cl.thm1.frozen-forgetting.decrease", [195], ["003-84"],
    "For t > T1, E[F_t] = (T1 − 1)/(t − 1)·E[F_{T1}] decreases as t grows and converges to "
    "0 (L195).",
    "Primary: 'decreases' for every value E[F_{T1}] can take. The single-expert special case "
    "(M = 1 within exploration, identical ground truths w_n = w) gives E[F_t] < 0. "
    "Reading E[F_{T1}] > 0.",
)
def check_frozen_decrease(ctx: CheckContext) -> Outcome:
    rv, w2 = Fraction(2, 5), Fraction(1)
    t = 3
    # one expert, identical tasks: E‖w_t − w‖² = r^t ‖w‖²
    F = sum(rv**t * w2 - rv**i * w2 for i in range(1, t)) / (t - 1)
    T1 = sp.Symbol("T_1", positive=True)
    tt = sp.Symbol("t", positive=True)
    lim = sp.limit((T1 - 1) / (tt - 1), tt, sp.oo)
    return _out(
        [_r("any-sign", "decreasing for every E[F_{T1}]", F > 0,
            f"identical tasks: E[F_3] = {F} < 0, so (T1 − 1)/(t − 1)·E[F_T1] increases to 0",
            forgetting=str(F)),
         _r("positive", "E[F_{T1}] > 0", lim == 0,
            "then it decreases strictly and tends to 0", limit=lim)],
        "1. $(T_1-1)/(t-1)$ decreases to $0$, so the product moves monotonically to $0$ from the "
        "side of $E[F_{T_1}]$'s sign.\n2. Forgetting can be negative (Section 5 itself says "
        "training on new tasks can help old ones): with identical tasks an expert's error only "
        "shrinks, $E[F_3]=\\frac12((r^3-r)+(r^3-r^2))\\|w\\|^2<0$.",
    )


@_claim(
    "cl.prop4.forgetting.oscillation", [195], ["003-85"],
    "The single expert's forgetting (17) oscillates, unlike the MoE's (L195).",
    "Primary: the expectation (17) as a sequence in t (sign changes of its differences, t = 2 … "
    "120) at r = 2/5 (A.2) for ratios B/A ∈ {0, 1, 2, 10}, exact rationals.",
)
def check_oscillation(ctx: CheckContext) -> Outcome:
    rv = Fraction(2, 5)
    rows = []
    for ratio in (0, 1, 2, 10):
        A, B = Fraction(1), Fraction(ratio)
        vals = []
        for t in range(2, 121):
            geo = (rv - rv**t) / (1 - rv)  # sum_{k=1}^{t-1} r^k
            vals.append((A * geo + B * (geo - (t - 1) * rv**t)) / (t - 1))
        diffs = [b - a for a, b in itertools.pairwise(vals)]
        changes = sum(1 for a, b in itertools.pairwise(diffs) if (a > 0) != (b > 0))
        rows.append({"B_over_A": ratio, "sign_changes_of_difference": changes})
    ok = any(r["sign_changes_of_difference"] > 2 for r in rows)
    return _out(
        [_r("expectation-(17)", "E[F_t] of (17) oscillates in t", ok,
            "the differences change sign at most once: (17) is eventually monotone (~C/t)",
            rows=rows)],
        "$(t-1)E[F_t]=A\\sum_{k=1}^{t-1}r^k+B(\\sum_{\\tau<t}r^\\tau-(t-1)r^t)\\to(A+B)r/(1-r)$, "
        "so $E[F_t]\\sim(A+B)r/((1-r)t)$: no oscillation. Realised $F_t$ do fluctuate; that is "
        "a statement about single runs, not about (17).",
    )


def _g_gap(Lbar: sp.Expr, T: sp.Expr) -> sp.Expr:
    """(18) minus (20) with every r^{L_T1^{(m_τ)}} replaced by its average ``Lbar``."""
    single = r_**T * A_ + (1 - r_**T) * B_
    moe = Lbar * A_ + (1 - Lbar) * B_
    return sp.factor(single - moe)


@_claim(
    "cl.thm1.coefficient-comparison", [196], ["003-87"],
    "The gap coefficient 1 − r^{L_{T1}^{(m_τ)}} in (20) is smaller than 1 − r^T in (18) (L196).",
    "0 < r < 1 and L_{T1}^{(m_τ)} ≤ T1 < T.",
)
def check_coefficient_comparison(ctx: CheckContext) -> Outcome:
    rv = Fraction(2, 5)
    cases = ((1, 2), (5, 6), (40, 2000))
    rows = [{"L": L, "T": T, "holds": 1 - rv**L < 1 - rv**T} for L, T in cases]
    return _out(
        [_r("exponents", "L ≤ T1 < T", all(x["holds"] for x in rows),
            "r^L > r^T for L < T", rows=rows)],
        "$L^{(m)}_{T_1}\\le T_1<T$ and $0<r<1$ give $r^{L}>r^T$.",
    )


@_claim(
    "cl.thm1.beats-single-expert", [196], ["003-88"],
    "Therefore the generalization error under MoE is smaller than with a single expert, "
    "especially as T grows (L196).",
    "Primary (the seed's condition 'tasks not similar, gap term dominates'): bound (20) < (18) "
    "iff B > A with A = Σ‖w_n‖²/N, B = Σ gaps/N² (exact factorisation). Reading 'for every "
    "ground-truth pool': counterexample B = 0.",
)
def check_beats_single(ctx: CheckContext) -> Outcome:
    Lbar, T = sp.symbols("Rbar T", positive=True)
    g = _g_gap(Lbar, T)
    expected = sp.factor((Lbar - r_**T) * (B_ - A_))
    ok = sp.simplify(g - expected) == 0
    rv = sp.Rational(2, 5)
    cex = g.subs({r_: rv, T: 10, Lbar: rv**3, A_: 1, B_: 0})
    return _out(
        [_r("gap-dominates", "B > A (large task gaps)", ok,
            "(18) − (20) = (R̄ − r^T)(B − A) with R̄ = avg r^{L_T1} > r^T", difference=g),
         _r("every-pool", "for every W", bool(cex > 0),
            f"identical ground truths (B = 0, A = 1), r = 2/5, T = 10, R̄ = r³: (18) − (20) = "
            f"{sp.N(cex, 6)} < 0", value=cex)],
        "1. $(18)-(20)=r^TA+(1-r^T)B-\\bar R A-(1-\\bar R)B=(\\bar R-r^T)(B-A)$ with "
        "$\\bar R=\\frac1T\\sum_\\tau r^{L^{(m_\\tau)}_{T_1}}$.\n2. $\\bar R>r^T$, so the "
        "MoE bound "
        "is smaller iff $B>A$: true for A.2's Gaussian pool in expectation ($B\\approx2A$), "
        "false for similar tasks.",
    )


@_claim(
    "cl.thm1.dissimilarity-advantage", [195], ["003-86"],
    "Less similar tasks (larger model gaps) amplify the MoE's advantage (L195).",
    "Generalization form: d/dB of (18) − (20) at fixed A; the forgetting form depends on the "
    "routing counts and is left to the simulation claims (cl.fig2).",
)
def check_dissimilarity(ctx: CheckContext) -> Outcome:
    Lbar, T = sp.symbols("Rbar T", positive=True)
    deriv = sp.diff(_g_gap(Lbar, T), B_)
    return _out(
        [_r("generalization", "∂[(18) − (20)]/∂B > 0", True,
            f"∂/∂B = {sp.factor(deriv)} > 0 since R̄ > r^T", derivative=deriv)],
        "1. Write the two bounds with $A=\\frac1N\\sum_n\\|w_n\\|^2$ and "
        "$B=\\frac1{N^2}\\sum_{n\\ne n'}\\|w_n-w_{n'}\\|^2$: "
        "$(18)-(20)=(\\bar R-r^T)(B-A)$ (the factorisation of `cl.thm1.beats-single-expert`).\n"
        "2. Differentiate at fixed $A$: $\\partial_B[(18)-(20)]=\\bar R-r^T$.\n"
        "3. $\\bar R$ averages $r^{L_{T_1}}$ with $L_{T_1}\\le T_1<T$ and $0<r<1$, so "
        "$\\bar R>r^T$: the advantage grows with the task gap term $B$.",
    )


@_claim(
    "cl.thm1.grows-with-T1", [197], ["003-89"],
    "A longer exploration T1 increases the coefficient 1 − r^{L_{T1}} and hence E[G_T] in (20) "
    "when task gaps are large (L197).",
    "d/dL of the summand r^L·A + (1 − r^L)·B of (20): positive iff B > A (the seed's 'gaps "
    "large'); reading 'always' refuted at B = 0.",
)
def check_grows_with_T1(ctx: CheckContext) -> Outcome:
    L = sp.Symbol("L", positive=True)
    summand = r_**L * A_ + (1 - r_**L) * B_
    d = sp.factor(sp.diff(summand, L))
    expected = r_**L * sp.log(r_) * (A_ - B_)
    ok = sp.simplify(d - expected) == 0
    return _out(
        [_r("gaps-large", "B > A", ok, "d/dL = r^L ln r (A − B) > 0 iff B > A (ln r < 0)",
            derivative=d),
         _r("always", "for every W", False, "B = 0: d/dL = A r^L ln r < 0, the bound shrinks")],
        "$\\partial_L[r^LA+(1-r^L)B]=r^L\\ln r\\,(A-B)$, positive iff $B>A$.",
    )


def _count_subs(route: list[int], T1: int, frozen: bool) -> dict[sp.Expr, int]:
    """``L(a, b) = L_a^{(m_b)}`` for a routing history; ``frozen`` counts only rounds ≤ T1."""
    n = len(route)
    return {th.L(a, b): route[: (min(a, T1) if frozen else a)].count(route[b - 1])
            for a in range(1, n + 1) for b in range(1, n + 1)}


_ROUTE, _T1_I = [0, 1, 0, 2, 1], 3  # M = 3 experts, T1 = 3, five rounds
_SINGLETON = {th.r: sp.Rational(2, 5), th.S: 3, th.D: 4, th.N: 1, th.Psi1: 0}


def _singleton_pool() -> tuple[float, float, float]:
    W = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    clusters = [0, 1, 2]
    return (float(th.psi1(W, clusters)), float(th.psi2(W, clusters)),
            th.pair_gap_sum(W, "ordered") / 9)


@_claim(
    "cl.thm2.one-task-per-cluster.forgetting", [218], ["003-92"],
    "With one task per cluster, Ψ1 = 0 and E[F_t] of (21) is the same as (19) (L218).",
    "Singleton clusters (pool of 3 ground truths): Ψ1 exactly; then (21) − (19) at t = 5 > T1 = 3 "
    "with SymPy, routing (1, 2, 1, 3, 2): primary with the routed-task counts L_t = t·f_t as "
    "defined (L183), reading with counts frozen after T1 (experts no longer change, Prop. 1).",
)
def check_one_task_forgetting(ctx: CheckContext) -> Outcome:
    psi1, _, _ = _singleton_pool()
    t_v = len(_ROUTE)
    e21 = th.thm2_forgetting_bound_expr().subs({th.t: t_v, th.T1: _T1_I}).doit()
    e19 = th.thm1_forgetting_bound_expr().subs({th.t: t_v}).doit()
    rows = {}
    for frozen in (True, False):
        L = _count_subs(_ROUTE, _T1_I, frozen)
        rows[frozen] = sp.nsimplify(sp.expand((e21 - e19).subs(L).subs(_SINGLETON)))
    return _out(
        [_r("routed-counts", "Ψ1 = 0 and (21) = (19) with L_t = t·f_t as defined (L183)",
            abs(psi1) < 1e-15 and rows[False] == 0,
            f"Ψ1 = {psi1}, but (21) − (19) = {rows[False]} with S = 3, D = 4, r = 2/5",
            difference=rows[False], psi1=psi1),
         _r("frozen-counts", "counts frozen after T1 (experts stop changing, Prop. 1)",
            rows[True] == 0, f"(21) − (19) = {rows[True]}", difference=rows[True]),
         _r("assumptions", "one task per cluster within Theorem 2", False,
            "K = N contradicts Theorem 2's K < M < N: the special case lies outside the theorem")],
        "1. Singleton clusters give $\\Psi_1=\\frac1N\\sum_n\\|w_n-w_n\\|^2=0$.\n"
        "2. (21) keeps the gap term only for $\\tau\\le T_1$ and with $r^{L_{T_1}}$; (19) sums to "
        "$t$ with $r^{L_t}$. They agree when every count is frozen at $T_1$.\n"
        "3. With the counts as defined ($L_t=t f_t$ grows after $T_1$), they differ.\n"
        "4. $K=N$ violates $K<M<N$.",
    )


@_claim(
    "cl.thm2.one-task-per-cluster.generalization", [219], ["003-93"],
    "With one task per cluster Ψ2 = Σ_{n,n'}‖w_n' − w_n‖²/N², Ψ1 = 0, the Ψ2 coefficient "
    "simplifies to Σ_{τ>T1}(1 − r^{L_T1}) given L_T = L_T1, and (22) specialises to (20) (L219).",
    "Singleton clusters; L_T = L_{T1} (the seed's premise); exact SymPy evaluation of (22) and "
    "(20) at T = 5, T1 = 3, routing (1, 2, 1, 3, 2).",
)
def check_one_task_generalization(ctx: CheckContext) -> Outcome:
    _, psi2, gaps = _singleton_pool()
    T_v = len(_ROUTE)
    L = _count_subs(_ROUTE, _T1_I, True)
    subs = {**_SINGLETON, th.Psi2: 4}
    g22 = th.thm2_generalization_bound_expr().subs({th.T: T_v, th.T1: _T1_I}).doit()
    g20 = th.thm1_generalization_bound_expr().subs({th.T: T_v, th.T1: _T1_I}).doit()
    v22 = sp.nsimplify(g22.subs(L).subs(subs))
    v20 = sp.nsimplify(g20.subs(L).subs(subs))
    coef = sp.nsimplify(sum(1 - th.r ** (L[th.L(T_v, tau)] - L[th.L(_T1_I, tau)])
                            for tau in range(_T1_I + 1, T_v + 1)))
    return _out(
        [_r("(22)=(20)", "(22) specialises to (20) under L_T = L_T1, Ψ1 = 0", v22 == v20,
            f"S = 3, D = 4, Ψ2 = D, r = 2/5: (22) = {v22} ≠ (20) = {v20}", eq22=v22, eq20=v20),
         _r("psi2", "Ψ2 = Σ_{n,n'}‖w_n' − w_n‖²/N²", abs(psi2 - gaps) < 1e-12,
            f"Ψ2 = {psi2:.6g} = gaps/N² = {gaps:.6g}"),
         _r("psi2-coefficient", "coefficient Σ_{τ>T1}(1 − r^{L_T1})", coef != 0,
            f"in (22) it is Σ_{{τ>T1}}(1 − r^{{L_T − L_T1}}) = {coef} when L_T = L_T1",
            coefficient=coef)],
        "1. Singleton clusters: $\\Psi_2=\\frac1{N^2}\\sum_{n,n'}\\|w_{n'}-w_n\\|^2$ "
        "(exact for the pool).\n2. With $L_T=L_{T_1}$ the $\\Psi_2$ coefficient of (22) is "
        "$\\sum_{\\tau>T_1}(1-r^0)=0$, not the seed's $\\sum(1-r^{L_{T_1}})$.\n3. What remains of "
        "(22) multiplies an exploration-average gap term by $r^{L_T}$, which is not (20)'s "
        "$(1-r^{L_{T_1}})$ (instance values differ).",
    )


@_claim(
    "cl.thm2.psi2-range", [212, 219], ["003-94"],
    "Ψ2 is described as the gap of random task arrivals for t < T1 (L219) yet is summed over "
    "τ ∈ {T1 + 1, …, T} in (22) (L212).",
    "Compare the index range of Ψ2's sum in (22) with the text's t < T1.",
)
def check_psi2_range(ctx: CheckContext) -> Outcome:
    T1, T = 5, 10
    summed = set(range(T1 + 1, T + 1))
    text = set(range(1, T1))
    return _out(
        [_r("consistent", "Ψ2's rounds in (22) are the text's t < T1", summed == text,
            f"(22) sums τ = {T1 + 1}..{T}; the text says t < T1: the ranges are disjoint",
            overlap=sorted(summed & text))],
        "The $\\Psi_2$ sum in (22) runs over $\\tau>T_1$, the text over $t<T_1$: the two "
        "descriptions cannot both hold.",
    )


@_claim(
    "cl.lemma16.expert-model-step", [731, 733, 751, 753], ["003-102"],
    "Lemma 16 (42): E‖w_t^{(m_i)} − w_{n_i}‖² = r^{L} E‖w_{n_i}‖² + Σ_l (1 − r)r^{L−l} "
    "E‖w^{(m_i)}_{τ(l)} − w_{n_i}‖² with the expert model w^{(m_i)}_{τ(l)} (L733); the proof "
    "derives it with the ground truth w_{n_{τ(l)}} (L751).",
    "Exact at t = i = 1, L = 1 (first task, one expert), with E‖P u‖² = (s/d)‖u‖²: compare both "
    "forms with E‖w_1 − w_{n_1}‖² = r‖w_{n_1}‖².",
)
def check_lemma16_expert_model(ctx: CheckContext) -> Outcome:
    w2 = sp.Symbol("W2", positive=True)
    truth = r_ * w2
    expert_form = r_ * w2 + (1 - r_) * truth  # w_1 − w_{n_1} has E‖·‖² = r‖w‖²
    gt_form = r_ * w2 + (1 - r_) * 0  # w_{n_{τ(1)}} = w_{n_1}
    return _out(
        [_r("expert-model", "as printed in (42)", sp.simplify(expert_form - truth) == 0,
            f"RHS = {sp.factor(expert_form)} ≠ r‖w‖²", rhs=expert_form),
         _r("ground-truth", "with w_{n_{τ(l)}} as the proof derives",
            sp.simplify(gt_form - truth) == 0,
            "RHS = r‖w‖²")],
        "1. From $w_0=0$, $w_1=P_1w_{n_1}$, so "
        "$E\\|w_1-w_{n_1}\\|^2=(1-s/d)\\|w_{n_1}\\|^2=r\\|w\\|^2$."
        "\n2. With the expert model inside the sum, (42) adds $(1-r)r\\|w\\|^2\\ne0$; with the "
        "ground truth it adds $0$.",
    )


@_claim(
    "cl.lemma16.frozen-index", [731, 739, 777, 129], ["003-103"],
    "Lemma 16's proof uses w_t^{(m)} = w_{T1}^{(m)} for t > T1 'by Propositions 1 and 2' "
    "(L739, L777).",
    "Proposition 1 gives w_{T1+1} = ⋯ = w_T: does it imply w_{T1+1} = w_{T1}? Counterexample "
    "sequence of models consistent with Prop. 1 but updated at round T1 + 1.",
)
def check_lemma16_frozen(ctx: CheckContext) -> Outcome:
    seq = {"T1": [0, 0], "T1+1": [1, 0], "T1+2": [1, 0]}
    prop1 = seq["T1+1"] == seq["T1+2"]
    lemma = seq["T1+1"] == seq["T1"]
    return _out(
        [_r("inference", "Prop. 1 ⇒ w_t = w_{T1} for t > T1", (not prop1) or lemma,
            "models (0,0) at T1 and (1,0) from T1+1 on satisfy Prop. 1, not w_t = w_{T1}",
            models=seq)],
        "Proposition 1 freezes the models from $T_1+1$ on; round $T_1+1$ itself may still update "
        "them. Lemma 16 needs the stronger $w_{T_1+1}=w_{T_1}$ (an off-by-one).",
    )


@_claim(
    "cl.lemma16.row-space", [749], ["003-104"],
    "P_t = X_t(X_tᵀX_t)⁻¹X_tᵀ is the orthogonal projection onto the row space of X_t (L749).",
    "X_t ∈ R^{d×s}, s < d; exact rational instance d = 3, s = 2: P_t is idempotent, symmetric, "
    "fixes col(X_t) (a subspace of R^d); the row space of X_t lies in R^s.",
)
def check_row_space(ctx: CheckContext) -> Outcome:
    X = sp.Matrix([[1, 2], [0, -1], [3, 1]])
    P = X * (X.T * X).inv() * X.T
    idem = P * P == P and P.T == P
    fixes = P * X == X
    return _out(
        [_r("row-space", "onto the row space of X_t", False,
            "rows of X_t live in R^s (s = 2) while P_t acts on R^d (d = 3)"),
         _r("column-space", "onto col(X_t)", idem and fixes,
            "P² = P, Pᵀ = P and PX = X: the projection onto the column space",
            idempotent=idem, fixes_columns=fixes)],
        "$P_t$ is $d\\times d$ with $P_t^2=P_t=P_t^\\top$ and $P_tX_t=X_t$: it projects onto "
        "$\\operatorname{col}X_t$ (the row space of $X_t^\\top$).",
    )


@_claim(
    "cl.thm1.proof-exponent", [779, 191], ["003-107"],
    "The proof of Theorem 1 ends with r^{L_T^{(m_τ)}} (L779) where Theorem 1 states "
    "r^{L_{T1}^{(m_τ)}} (L191).",
    "Counts: Σ_m L_T^{(m)} = T > T1 = Σ_m L_{T1}^{(m)}, so some expert has L_T > L_{T1}; exact "
    "instance M = 2, T1 = 2, T = 3.",
)
def check_proof_exponent(ctx: CheckContext) -> Outcome:
    rv = Fraction(2, 5)
    route = [0, 1, 0]
    LT1 = [route[:2].count(m) for m in (0, 1)]
    LT = [route.count(m) for m in (0, 1)]
    differ = [rv ** LT[m] != rv ** LT1[m] for m in (0, 1)]
    return _out(
        [_r("consistent", "r^{L_T} = r^{L_T1} for every expert", not any(differ),
            f"routing {route}: L_T1 = {LT1}, L_T = {LT}; r^{{L_T}} ≠ r^{{L_T1}} for expert 1",
            L_T1=LT1, L_T=LT)],
        "Every round routes one task, so $\\sum_mL^{(m)}_T=T>T_1$: some expert's count grows "
        "after $T_1$ and the two expressions differ. Under Prop. 1 models freeze, so the theorem's "
        "$L_{T_1}$ is the consistent one; the proof's last line is not.",
    )


@_claim(
    "cl.notation.orders", [43], ["003-108"],
    "Notation (L43): for positive constants c1, c2, x = Ω(y) if x > c2|y|, x = Θ(y) if "
    "c1|y| < x < c2|y|, x = O(y) if x < c1|y|; used as if Θ(y) implied O(y) and Ω(y).",
    "With the same constants c1 < c2 in all three definitions, as printed: are Θ ⊂ O and Θ ⊂ Ω?",
)
def check_orders(ctx: CheckContext) -> Outcome:
    c1, c2, y = Fraction(1), Fraction(2), Fraction(1)
    x = (c1 + c2) / 2 * y
    theta = c1 * y < x < c2 * y
    is_O = x < c1 * y
    is_Omega = x > c2 * y
    return _out(
        [_r("shared-constants", "Θ(y) ⇒ O(y) and Ω(y)", theta and is_O and is_Omega,
            "x = 1.5|y| is Θ(y) with c1 = 1, c2 = 2, but neither O(y) (x < c1|y|) nor Ω(y) "
            "(x > c2|y|): the three classes are disjoint", x=str(x)),
         _r("standard", "each with its own constant (O: ∃c, Ω: ∃c, Θ = O ∩ Ω)", True,
            "the usual definitions make Θ ⊂ O ∩ Ω, as the proofs use")],
        "With shared $c_1<c_2$: $O=\\{x<c_1|y|\\}$, $\\Theta=\\{c_1|y|<x<c_2|y|\\}$, "
        "$\\Omega=\\{x>c_2|y|\\}$ are disjoint. Note also $O$ admits negative $x$.",
    )


# ---------------------------------------------------------------------------------------
# Parameter choices, further proof steps, and the step audit
# ---------------------------------------------------------------------------------------


@_claim(
    "cl.setup.eta-choice", [129, 251, 382], [],
    "The proofs fix η so that T1 = ⌈η^-1 M⌉ = ⌈σ0^-0.5 M⌉, i.e. η = σ0^0.5 (L382); Appendix A.2 "
    "runs the experiments with σ0 = 0.4 and η = 0.5 (L251).",
    "Exact: is A.2's η equal to σ0^0.5, and do the two formulas for T1 agree at A.2's M values?",
)
def check_eta_choice(ctx: CheckContext) -> Outcome:
    sig, et = sp.Rational(2, 5), sp.Rational(1, 2)
    rows = [{"M": m, "T1_eta": int(sp.ceiling(m / et)),
             "T1_sigma": int(sp.ceiling(m / sp.sqrt(sig)))} for m in (5, 10, 20)]
    ok = sp.sqrt(sig) == et
    return _out(
        [_r("A.2", "η = σ0^0.5 at σ0 = 0.4, η = 0.5", ok,
            f"σ0^0.5 = {sp.N(sp.sqrt(sig), 6)} ≠ 0.5: T1 = ⌈M/η⌉ and ⌈σ0^-0.5 M⌉ differ "
            f"(M = 20: {rows[2]['T1_eta']} vs {rows[2]['T1_sigma']})", rows=rows)],
        "$\\sqrt{0.4}=0.632\\ne0.5$, so A.2's settings lie outside the parameter choice the "
        "proofs use; the order statements are checked under $\\eta=\\sigma_0^{0.5}$ elsewhere.",
    )


@_claim(
    "cl.setup.rounds-order-M", [17, 129, 147], [],
    "Expert exploration and router learning take O(M) rounds (L17): T1 = ⌈η^-1M⌉ and "
    "T2 = O(η^-1σ0^-0.25 M).",
    "σ0 and η fixed, M → ∞: the M-exponent of T1 and of η^-1σ0^-0.25M.",
)
def check_rounds_order(ctx: CheckContext) -> Outcome:
    T1 = M_ / eta
    T2 = M_ / eta * s0 ** sp.Rational(-1, 4)
    lims = [sp.limit(x / M_, M_, sp.oo) for x in (T1, T2)]
    ok = all(x.is_positive and x.is_finite for x in lims)
    return _out(
        [_r("linear-in-M", "T1/M and T2/M tend to positive constants", ok,
            f"T1/M = {lims[0]}, T2/M = {lims[1]}", limits=lims)],
        "$T_1/M=\\eta^{-1}$ and $T_2/M=\\eta^{-1}\\sigma_0^{-0.25}$ do not depend on $M$; note "
        "the constants grow as $\\eta,\\sigma_0\\to0$.",
    )


@_claim(
    "cl.lemma9.exponent-step", [482], [],
    "Proof of Lemma 9: T1·|f_{T1}^{(m)} − f_{T1}^{(m')}| = O(η^-0.5) by eq. (32) of Lemma 8, so "
    "‖θ_{T1}^{(m)} − θ_{T1}^{(m')}‖∞ = O(η^-0.5σ0) (L482).",
    "Primary: with the deviation ε that Lemma 8's Hoeffding argument actually gives, "
    "ε = sqrt(η ln(2M/δ)/(2M)) (see cl.lemma8.epsilon-order), T1 = M/η, M → ∞. Reading: with "
    "Lemma 8's stated ε = η^0.5/M.",
)
def check_lemma9_step(ctx: CheckContext) -> Outcome:
    dl = sp.Symbol("delta", positive=True)
    T1 = M_ / eta
    eps_true = sp.sqrt(eta * sp.log(2 * M_ / dl) / (2 * M_))
    stated = sp.simplify(T1 * 2 * sp.sqrt(eta) / M_ * sp.sqrt(eta))
    actual = sp.limit(T1 * 2 * eps_true * sp.sqrt(eta), M_, sp.oo)
    return _out(
        [_r("lemma8-actual", "ε from the Hoeffding step", actual.is_finite is True,
            f"T1·2ε·η^0.5 → {actual} as M → ∞: the gap grows like sqrt(M ln M)", limit=actual),
         _r("lemma8-stated", "ε = η^0.5/M as Lemma 8 states", stated.free_symbols == set(),
            f"T1·2ε·η^0.5 = {stated}: O(1), hence O(η^-0.5) for the count gap", value=stated)],
        "1. With Lemma 8's stated $\\varepsilon=\\eta^{0.5}/M$, $T_1\\cdot2\\varepsilon="
        "2\\eta^{-0.5}$: the step is right.\n2. The Hoeffding bound only gives "
        "$\\varepsilon=\\sqrt{\\eta\\ln(2M/\\delta)/(2M)}$, so $T_1\\cdot2\\varepsilon="
        "\\Theta(\\eta^{-0.5}\\sqrt{M\\ln M})$: Lemma 9 inherits Lemma 8's failing step.",
    )


@_claim(
    "cl.lemma13.step-order", [526, 624], [],
    "At t = T1 + 1: ⟨θ_{t+1}^{(m_t)} − θ_t^{(m_t)}, v_n⟩ = −O(σ0^1.5) and +O(σ0^1.5) for m ≠ m_t, "
    "because ‖∇L_task‖∞ = O(σ0) (Lemma 5) (L526, L624).",
    "Primary: the actual order of the step at t = T1 + 1 with η = σ0^0.5: η·αM f/t·∂π with "
    "αM/(T1 + 1) = Θ(σ0^0.5) (cl.lemma5.aux-gradient-order) and f, ∂π = Θ(1/M). Reading: from "
    "Lemma 5's stated O(σ0).",
)
def check_lemma13_step(ctx: CheckContext) -> Outcome:
    T1 = M_ / PAPER_ETA
    actual = _order("eta*alpha*M/T1*f*dpi", PAPER_ETA * alpha * M_ / T1 / M_**2,
                    sp.Rational(3, 2), "O")
    stated = _order("eta*O(sigma0)", PAPER_ETA * s0, sp.Rational(3, 2), "O")
    return _out(
        [_r("actual-gradient", "η × the aux gradient at T1 + 1", actual["holds"],
            "η·ασ0^0.5/M = Θ(σ0): exponent 1 < 1.5", row=actual),
         _r("lemma5-stated", "η × O(σ0)", stated["holds"], "exponent 0.5 + 1 = 1.5", row=stated)],
        "1. From Lemma 5's stated $O(\\sigma_0)$ the algebra gives "
        "$\\eta\\sigma_0=\\sigma_0^{1.5}$."
        "\n2. But at $t=T_1+1$ the aux gradient is $\\alpha M/t\\cdot f\\cdot\\partial\\pi="
        "\\Theta(\\sigma_0^{0.5})$ (Lemma 5's second case fails), so the step is "
        "$\\Theta(\\sigma_0)$, larger than $O(\\sigma_0^{1.5})$.",
    )


#: The exact step claims of each proof, in the order the proof uses them (catalogued exact
#: claims included; Lemma 16's statistical projection step, ``cl.update.projection-mean``, is
#: reported on its own). A proof is valid only if every step is.
PROOF_STEPS: dict[str, tuple[str, ...]] = {
    "Lemma 1 (Appendix C)": (
        "cl.lemma1.wlog-first-column", "cl.lemma1.gate-difference-step", "cl.lemma1.hoeffding-step",
        "cl.lemma1.exponential-o1", "cl.lemma1.product-step",
        "cl.lemma1.signal-gap-assumption", "cl.lemma6.parameter-bound",
    ),
    "Lemma 2 (Appendix B)": (
        "cl.lemma2.argmax-inequality", "cl.lemma2.centring-step", "cl.lemma2.smooth-router",
        "cl.corollary1.order",
    ),
    "Lemma 4": ("cl.lemma4.aux-gradient-formula",),
    "Lemma 5": ("cl.lemma5.local-gradient-order", "cl.lemma5.aux-gradient-order",
                "cl.proofs.order-inference", "cl.lemma5.aux-dominance-step"),
    "Lemma 6": ("cl.lemma6.parameter-bound",),
    "Lemma 7": ("cl.lemma7.step-size", "cl.lemma7.softmax-product", "cl.lemma7.step-signs"),
    "Lemma 8": ("cl.lemma8.symmetry", "cl.lemma8.epsilon-order", "cl.lemma8.delta-step"),
    "Lemma 9": ("cl.lemma9.exponent-step",),
    "Lemma 10": ("cl.lemma10.softmax-gap", "cl.lemma10.lower-step"),
    "Lemma 11": ("cl.lemma11.product-step", "cl.lemma11.constant-step"),
    "Lemma 12": ("cl.lemma12.singleton-set", "cl.lemma12.projection-sup-norm",
                 "cl.lemma12.zero-local-gradient"),
    "Lemma 13": ("cl.proofs.order-inference", "cl.lemma13.step-order",
                 "cl.lemma13.exponent-step", "cl.lemma13.proof-scope"),
    "Proposition 1 (Appendix E.8)": (
        "cl.prop1.inner-product-step", "cl.prop1.gate-gap-step", "cl.proofs.order-inference",
        "cl.prop1.proof-contradiction", "cl.prop1.eta-step", "cl.prop1.m-lt-n-projection",
    ),
    "Proposition 2 (Appendix F)": (
        "cl.lemma14.factorisation-step", "cl.lemma14.aux-coefficient",
        "cl.prop2.extreme-pair-step", "cl.prop2.exploration-move", "cl.prop2.theta-gap-order",
        "cl.prop2.m-lt-n-theta-gap", "cl.prop2.gradient-difference", "cl.prop2.overtake-step",
    ),
    "Proposition 3 (Appendix G)": ("cl.prop3.noise-inequality", "cl.prop3.noise-order",
                                   "cl.prop3.uniform-choice-step"),
    "Lemma 16 and Theorem 1 (Appendix I)": (
        "cl.lemma16.frozen-index", "cl.lemma16.projection-recursion", "cl.lemma16.row-space",
        "cl.lemma16.expert-model-step", "cl.thm1.proof-forgetting-expansion",
        "cl.thm1.proof-exponent",
    ),
    "Theorem 2 (Appendix J)": ("cl.thm2.proof-forgetting-split",),
}


@_claim(
    "cl.proofs.step-audit", [268, 292, 326, 406, 562, 684, 725, 783], [],
    "The proofs of Appendices B-J are valid step by step: every step claim of each lemma and "
    "proposition holds.",
    "For each proof, its step claims (PROOF_STEPS, exact) are run in proof order; the proof is "
    "valid only if all hold, otherwise the first failing step is named.",
    origin="package",
)
def check_step_audit(ctx: CheckContext) -> Outcome:
    from moetheory.engine.registry import get_claim

    cache: dict[str, Outcome] = {}
    readings = []
    for proof, steps in PROOF_STEPS.items():
        verdicts = {}
        for cid in steps:
            if cid not in cache:
                cache[cid] = get_claim(cid).check(ctx)
            verdicts[cid] = cache[cid].verdict
        failing = [cid for cid in steps if verdicts[cid] is not Verdict.PROVED]
        first = failing[0] if failing else None
        readings.append(Reading(
            proof, f"every step of the proof of {proof} holds", _v(first is None),
            f"first failing step: {first} ({cache[first].summary})" if first
            else f"all {len(steps)} steps hold",
            {"steps": {cid: v.value for cid, v in verdicts.items()},
             "first_failing_step": first}))
    bad = [r for r in readings if r.verdict is Verdict.REFUTED]
    out = Outcome(
        _v(not bad),
        f"{len(bad)} of {len(readings)} proofs have a failing step; first failing steps: "
        + ", ".join(f"{r.name}: {r.evidence['first_failing_step']}" for r in bad[:4])
        + (" …" if len(bad) > 4 else ""),
        {"proofs_checked": len(readings), "proofs_with_failing_step": len(bad)},
        readings,
        "Each reading lists one proof's steps in the order the proof uses them, with each "
        "step's verdict (each step is its own claim with its derivation). A proof whose "
        "conclusion fails is traced to its first failing step.",
    )
    return out


@_claim(
    "cl.thm1.single-expert-specialisation", [197], [],
    "If M = 1 in Theorem 1, L_t^{(m_τ)} becomes t and eqs. (19) and (20) specialise to eqs. "
    "(17) and (18) (L197).",
    "Substitute L_a^{(m_b)} = a (one expert) into (19) and (20) and compare with (17) and (18) "
    "as printed (ordered pairs), symbolically; for (20) at T > T1 and at T = T1.",
)
def check_single_expert_specialisation(ctx: CheckContext) -> Outcome:
    one = {th.L: sp.Lambda((sp.Symbol("a"), sp.Symbol("b")), sp.Symbol("a"))}
    tau = sp.Symbol("tau", integer=True, positive=True)
    f19 = th.thm1_forgetting_bound_expr().replace(th.L, one[th.L])
    t_v = 3
    v19 = sp.nsimplify(f19.subs(th.t, t_v).doit())
    v17 = sp.nsimplify(sum(th.prop4_forgetting_summand().subs({th.t: t_v, tau: k})
                            for k in range(1, t_v)) / (t_v - 1))
    diff_f = sp.factor(sp.expand(v19 - v17))
    g20 = th.thm1_generalization_bound_expr().replace(th.L, one[th.L]).doit()
    g18 = th.prop4_generalization_expr("ordered")
    diff_g = sp.factor(sp.simplify(g20 - g18))
    diff_g_T1 = sp.simplify(diff_g.subs(th.T1, th.T))
    return _out(
        [_r("(19)->(17)", "(19) with L_t = t equals (17) as printed", diff_f == 0,
            f"at t = 3: (19) − (17) = {diff_f}: the first term is (r^t − r^τ)S/N in (19) but "
            "r^{t−τ}S/N in (17)", difference=diff_f),
         _r("(20)->(18)", "(20) with L_T1 = T1 equals (18)", diff_g == 0,
            f"(20) − (18) = {diff_g}: equal only when T = T1", difference=diff_g),
         _r("(20)->(18) at T = T1", "T = T1", diff_g_T1 == 0, "equal at T = T1",
            difference=diff_g_T1)],
        "1. With one expert, $L^{(m_\\tau)}_a=a$.\n2. (19) becomes $\\frac1{t-1}\\sum_\\tau"
        "[(r^t-r^\\tau)S/N+(r^\\tau-r^t)D/N^2]$, whose first term differs from (17)'s "
        "$r^{t-\\tau}S/N$.\n3. (20) keeps $r^{T_1}$ where (18) has $r^T$: they agree only at "
        "$T=T_1$.",
    )


@_claim(
    "cl.prop3.uniform-choice-step", [703, 705, 709], [],
    "After termination, P(m_t = m | m ∈ M_n) = 1/|M_n| because r = Θ(σ0^1.25) and "
    "|h_m − h_m'| = O(σ0^1.25) within the set (L703–705, L709).",
    "Exact routing probabilities for |M_n| = 2, r ~ U[0, λ], gate gap Δ = |h_m − h_m'| of the "
    "same order as λ (Δ = λ and Δ = λ/2, λ = σ0^1.25 = 3/10); reading Δ = o(λ).",
)
def check_uniform_choice(ctx: CheckContext) -> Outcome:
    lam_v = sp.Rational(3, 10)
    rows = []
    for frac in (sp.Integer(1), sp.Rational(1, 2), sp.Rational(1, 100)):
        p = th.routing_probabilities_exact([frac * lam_v, 0], lam_v)
        rows.append({"gap_over_lambda": str(frac), "p_top": str(sp.nsimplify(p[0]))})
    q = sp.Symbol("q", positive=True)
    p_small = 1 - (1 - q) ** 2 / 2  # Δ = qλ, 0 ≤ q ≤ 1
    lim = sp.limit(p_small, q, 0)
    same_order_ok = all(sp.Rational(r["p_top"]) == sp.Rational(1, 2) for r in rows[:2])
    return _out(
        [_r("same-order", "Δ = Θ(λ) (Δ = λ, λ/2)", same_order_ok,
            f"P(top expert) = {rows[0]['p_top']} at Δ = λ and {rows[1]['p_top']} at Δ = λ/2, "
            "not 1/2", rows=rows),
         _r("gap-o-lambda", "Δ = o(λ)", lim == sp.Rational(1, 2),
            f"P(top) = 1 − (1 − Δ/λ)²/2 → {lim} as Δ/λ → 0", limit=lim)],
        "1. For two experts with gap $\\Delta=q\\lambda$, $P(\\text{top})=1-(1-q)^2/2$ (exact, "
        "triangular density of $r_2-r_1$).\n2. Equal orders ($q=\\Theta(1)$) give a probability "
        "in $(1/2,1]$: $q=1$ gives 1, the noise never overturns the gap.\n3. Only "
        "$\\Delta=o(\\lambda)$ "
        "gives $1/2=1/|M_n|$; so the termination threshold must satisfy $\\Gamma=o(\\lambda)$, "
        "not $\\Gamma\\le\\lambda$ (Appendix A.4's $\\Gamma=\\lambda=\\sigma_0^{1.25}$ case).",
    )


# ---------------------------------------------------------------------------------------
# Steps found by the line-by-line re-read of seed 003 (session 4): no audit row, covers=[]
# ---------------------------------------------------------------------------------------


@_claim(
    "cl.lemma1.product-step", [312, 314], [],
    "End of Lemma 1's M > N proof: |h_m(X_t) − h_m(X̃_t)| = O(σ0^1.5) because "
    "|Σ_{i≥2}Σ_j X_t,(i,j)| = O(σ0) and θ_{t,j}^{(m)} = O(σ0^0.5) by Lemma 6 (L312–314).",
    "Exponent algebra of the product of the two premises (each premise is its own claim: "
    "cl.lemma1.exponential-o1, cl.lemma6.gate-bound).",
)
def check_lemma1_product(ctx: CheckContext) -> Outcome:
    row = _order("O(sigma0^0.5)*O(sigma0)", s0**HALF * s0, sp.Rational(3, 2), "O")
    return _out(
        [_r("algebra", "O(σ0^0.5)·O(σ0) = O(σ0^1.5)", row["holds"], "exponent 0.5 + 1 = 1.5",
            row=row)],
        "1. By L302 the gap is at most $\\max_j\\theta_{t,j}\\cdot|\\sum_{i\\ge2}\\sum_j "
        "X_{t,(i,j)}|$.\n2. The product of $O(\\sigma_0^{0.5})$ and $O(\\sigma_0)$ has "
        "$\\sigma_0$-exponent $1.5$: the step holds given its premises, whose own verdicts are "
        "those of `cl.lemma1.exponential-o1` and `cl.lemma6.gate-bound`.",
    )


@_claim(
    "cl.lemma5.aux-dominance-step", [366, 454], [],
    "Lemma 5's proof bounds ∇L_loc = O(σ0) and ∇L_aux = O(αM/t) (L366); 'by Lemma 5, for "
    "t ≤ T1 the auxiliary loss is the main loss updating Θ_t' (L454).",
    "Primary: the inference at L454 from Lemma 5's stated orders (local O(σ0), aux Ω(σ0)). "
    "Readings: the aux bound of L366 (exact maximum of the softmax factors), and the local "
    "gradient with ground truths of size O(σ0) (L372: w_n ~ N(0, σ0²)), so ‖Δw‖² = O(σ0²).",
)
def check_aux_dominance(ctx: CheckContext) -> Outcome:
    sig = Fraction(1, 100)
    loc, aux = 2 * sig, sig  # loc < 3σ0 (O(σ0), c = 3); aux > σ0/2 (Ω(σ0), c = 1/2)
    orders_ok = loc < 3 * sig and aux > sig / 2
    p, q = sp.symbols("p q", nonnegative=True)
    sel_max = sp.maximum(p * (1 - p), p, sp.Interval(0, 1))  # m = m_t: π(1 − π)
    # m ≠ m_t: π_mt·π_m with π_m = q ≤ 1 − p is largest at q = 1 − p
    other_max = sp.maximum(p * q.subs(q, 1 - p), p, sp.Interval(0, 1))
    local = _order("||dw||^2 * dpi, ground truths O(sigma0)", s0**2, sp.Integer(2), "O")
    return _out(
        [_r("from-lemma5", "local O(σ0) and aux Ω(σ0) ⇒ aux is the main term",
            orders_ok and aux > loc,
            f"σ0 = 1/100: ‖∇L_loc‖ = {loc} = O(σ0) (c = 3) and ‖∇L_aux‖ = {aux} = Ω(σ0) "
            "(c = 1/2) satisfy Lemma 5's orders, yet the local gradient is the larger",
            sigma0=str(sig), local=str(loc), aux=str(aux)),
         _r("aux-bound", "‖∇L_aux‖∞ ≤ αM/(4t)·‖Σ_iX_{t,i}‖∞ = O(αM/t)",
            sel_max == sp.Rational(1, 4) and other_max == sp.Rational(1, 4),
            "f ≤ 1 and max π(1 − π) = max π_mt π_m = 1/4 (π_m ≤ 1 − π_mt)",
            max_selected=str(sel_max), max_other=str(other_max)),
         _r("sharper-local", "ground truths O(σ0) ⇒ ‖Δw‖² = O(σ0²): local o(σ0), aux Ω(σ0)",
            local["holds"],
            "‖∇L_loc‖ ≤ ‖Δw‖²·O(1) = O(σ0²), exponent 2 > 1: the aux term dominates",
            row=local)],
        "1. Lemma 5 gives both gradients the order $\\sigma_0$ (local $O(\\sigma_0)$, aux "
        "$\\Omega(\\sigma_0)$); orders with unnamed constants cannot rank two terms of the "
        "same order: $2\\sigma_0$ vs $\\sigma_0$ satisfies both.\n2. The aux bound of L366 "
        "holds: $\\partial\\pi_{m_t}/\\partial\\theta^{(m)}$ is $\\pi_{m_t}(1-\\pi_{m_t})S$ or "
        "$-\\pi_{m_t}\\pi_mS$, both at most $S/4$ in size.\n3. The conclusion is true for a "
        "reason the proof does not give: every expert model is linear in the ground truths "
        "(eq. (5) from $w_0=0$), so ground truths of size $O(\\sigma_0)$ (L372) give "
        "$\\Delta w=O(\\sigma_0)$ along any routing path and a local gradient "
        "$\\|\\Delta w\\|_2^2\\,O(1)=O(\\sigma_0^2)$.",
    )


@_claim(
    "cl.prop1.gate-gap-step", [548, 550], [],
    "Proof of Prop. 1 at t = T1: |h_m(X_n) − h_m'(X_n)| ≤ ‖θ^{(m)}_{T1} − θ^{(m')}_{T1}‖∞‖v_n‖∞ "
    "= O(σ0η^-0.5) (L548), hence by Lemma 10 |π_m(X_n) − π_m'(X_n)| = O(σ0η^-0.5), eq. (38) "
    "(L550).",
    "Primary: the inequality with constant 1 (|⟨a, v⟩| ≤ ‖a‖∞‖v‖∞). Readings: Hölder's "
    "|⟨a, v⟩| ≤ d‖a‖∞‖v‖∞ (d fixed), and eq. (38) from the gate gap by the exact softmax "
    "bound |π_m − π_m'| ≤ tanh(|h_m − h_m'|/2) ≤ |h_m − h_m'|/2.",
)
def check_prop1_gate_gap(ctx: CheckContext) -> Outcome:
    a = v = sp.Matrix([1, 1])
    lhs = (a.T * v)[0]
    x, y, z = sp.symbols("x y z", real=True)
    tanh_identity = sp.simplify(((sp.exp(x) - sp.exp(y)) / (sp.exp(x) + sp.exp(y))
                                 - sp.tanh((x - y) / 2)).rewrite(sp.exp))
    slope = sp.simplify(sp.diff(z - sp.tanh(z), z) - sp.tanh(z) ** 2)  # d/dz (z − tanh z)
    return _out(
        [_r("le-1", "|⟨Δθ, v_n⟩| ≤ ‖Δθ‖∞‖v_n‖∞", lhs <= 1,
            f"Δθ = v_n = (1, 1): |⟨Δθ, v_n⟩| = {lhs} > 1 = ‖Δθ‖∞‖v_n‖∞", lhs=str(lhs)),
         _r("holder", "|⟨Δθ, v_n⟩| ≤ d‖Δθ‖∞‖v_n‖∞", True,
            "|⟨a, b⟩| ≤ ‖a‖₁‖b‖∞ ≤ d‖a‖∞‖b‖∞: O(σ0η^-0.5) with d fixed"),
         _r("eq38", "|π_m − π_m'| ≤ |h_m − h_m'|/2", tanh_identity == 0 and slope == 0,
            "(e^x − e^y)/(e^x + e^y) = tanh((x − y)/2) and d/dz(z − tanh z) = tanh² z ≥ 0",
            tanh_identity=str(tanh_identity), slope_residual=str(slope))],
        "1. $|\\langle a,v\\rangle|\\le\\|a\\|_\\infty\\|v\\|_\\infty$ fails for $a=v=(1,1)$ "
        "($2>1$); Hölder gives the bound with the factor $d$, a constant, so the order "
        "$O(\\sigma_0\\eta^{-0.5})$ survives.\n2. The step also replaces $h_m(X_n)-h_{m'}(X_n)="
        "\\langle\\Delta\\theta,\\sum_iX_{n,i}\\rangle$ by its signal column alone (as L542 "
        "does, `cl.prop1.inner-product-step`).\n3. Eq. (38) holds without Lemma 10's "
        "'close to 0' proviso: at one input, $|\\pi_m-\\pi_{m'}|=|e^{h_m}-e^{h_{m'}}|/Z\\le"
        "\\tanh(|h_m-h_{m'}|/2)\\le|h_m-h_{m'}|/2$.",
    )


@_claim(
    "cl.lemma12.singleton-set", [518], [],
    "Proof of Lemma 12, M > N: 'since |M_n| = 1' (L518).",
    "Expert sets of eq. (11) partition the M experts (each expert's argmax over the N signals, "
    "ties broken); all assignments enumerated for M = 3, N = 2.",
)
def check_singleton_set(ctx: CheckContext) -> Outcome:
    M, N = 3, 2
    sizes = [tuple(sum(1 for a in assign if a == n) for n in range(N))
             for assign in itertools.product(range(N), repeat=M)]
    all_singletons = any(all(sz == 1 for sz in s) for s in sizes)
    return _out(
        [_r("literal", "|M_n| = 1 for every n when M > N", all_singletons,
            f"M = {M}, N = {N}: none of the {len(sizes)} assignments has every |M_n| = 1 "
            "(Σ_n |M_n| = M > N forces some |M_n| ≥ 2)", set_sizes=sorted(set(sizes)))],
        "1. Eq. (11) puts each expert in exactly one $M_n$, so $\\sum_n|M_n|=M$.\n2. With "
        "$M>N$ some set has at least two experts (pigeonhole); $|M_n|=1$ for all $n$ is "
        "impossible.\n3. With $|M_n|\\ge2$, routing to some $m_t\\in M_n$ leaves $w$ unchanged "
        "only if that expert has already fitted task $n$'s data (see "
        "`cl.lemma12.zero-local-gradient`).",
    )


@_claim(
    "cl.lemma13.proof-scope", [446, 534, 554, 622, 626], [],
    "Lemma 13 states (33) for every t ∈ {T1 + 2, …, T}; its proof concludes 'eq. (33) holds "
    "for any t ∈ {T1 + 2, …, t1}' (L534), and Proposition 1's proof uses it for every t > T1 "
    "(L554).",
    "Primary: the proof's range covers the statement's, at Figure 2's settings (M = 10, "
    "η = 1/2, σ0 = 2/5, T = 2000). Reading: Lemma 15's proof (L622–626) against its own "
    "statement's range {T1 + 1, …, t1}.",
)
def check_lemma13_scope(ctx: CheckContext) -> Outcome:
    M, eta_v, sig, T = 10, sp.Rational(1, 2), sp.Rational(2, 5), 2000
    T1 = int(sp.ceiling(M / eta_v))
    t1 = int(sp.ceiling(M / eta_v * sig ** sp.Rational(-1, 4)))
    proved = set(range(T1 + 2, t1 + 1))
    stated = set(range(T1 + 2, T + 1))
    lemma15_stated = set(range(T1 + 1, t1 + 1))
    lemma15_proved = {T1 + 1} | set(range(T1 + 2, t1 + 1))
    missing = stated - proved
    return _out(
        [_r("lemma13", "proof range ⊇ stated range {T1+2, …, T}", not missing,
            f"T1 = {T1}, t1 = {t1} < T = {T}: rounds {t1 + 1}..{T} ({len(missing)} rounds) are "
            "stated but not reached by the proof", T1=T1, t1=t1, T=T,
            unproved_rounds=[min(missing), max(missing)] if missing else []),
         _r("lemma15", "Lemma 15's proof covers {T1+1, …, t1}", lemma15_proved >= lemma15_stated,
            f"its statement stops at t1 = {t1} too", T1=T1, t1=t1)],
        "1. $t_1=\\lceil\\eta^{-1}\\sigma_0^{-0.25}M\\rceil$; at Figure 2's settings "
        "$T_1=20$ and $t_1=\\lceil20\\cdot(5/2)^{1/4}\\rceil=26$ ($25^4<400000\\le26^4$), far "
        "below $T=2000$.\n2. The bound of L530 grows with $t-T_1$ and is only summed to $t_1$; "
        "the proof gives no argument past $t_1$, where Lemma 13 and Proposition 1 (L554) still "
        "use (33).\n3. Under Algorithm 1 the gate freezes at the termination round $T_2$, so "
        "(33) would persist after $T_2$; but $T_2=O(\\eta^{-1}\\sigma_0^{-0.25}M)$ "
        "(Proposition 3) allows $T_2>t_1$, and the proof does not use termination.\n4. Lemma "
        "15 is stated only up to $t_1$, so its proof's range matches.",
    )


@_claim(
    "cl.lemma14.factorisation-step", [582, 584, 614], [],
    "Proof of Lemma 14: ∇_{θ(m)}L_task − ∇_{θ(m_t)}L_task = (‖w_t^{(m_t)} − w_{t−1}^{(m_t)}‖² "
    "+ αM/t·f_t^{(m_t)})(∂π_{m_t}/∂θ(m) − ∂π_{m_t}/∂θ(m_t)) = O(σ0 + αM/t)·|…| = O(σ0) "
    "(L582–584, L614).",
    "SymPy: M = 3, scalar gate inputs (one coordinate of Σ_iX_{t,i}), L_task's θ-dependence "
    "(ΔW + αM f/t)·π_{m_t} with ΔW = ‖Δw‖² (eqs. (6)–(7)); then the order with "
    "αM/t ≤ σ0 (cl.lemma14.aux-coefficient) and |∂π| ≤ 2|S|.",
)
def check_lemma14_factorisation(ctx: CheckContext) -> Outcome:
    th_ = sp.symbols("theta1:4", real=True)
    S = sp.Symbol("S", real=True)
    dW, c = sp.symbols("DeltaW c", nonnegative=True)  # c = αM f/t
    Z = sum(sp.exp(t * S) for t in th_)
    pi1 = sp.exp(th_[0] * S) / Z  # m_t = expert 1
    L = (dW + c) * pi1
    resid = []
    for m in (1, 2):
        lhs = sp.diff(L, th_[m]) - sp.diff(L, th_[0])
        rhs = (dW + c) * (sp.diff(pi1, th_[m]) - sp.diff(pi1, th_[0]))
        resid.append(sp.expand(lhs - rhs))
    order = _order("(sigma0 + alpha*M/t)*O(1)", s0 + s0, sp.Integer(1), "O")
    return _out(
        [_r("factorisation", "the gradient difference factorises", all(x == 0 for x in resid),
            "SymPy: both sides agree for m = 2, 3 (residuals 0)",
            residuals=[str(x) for x in resid]),
         _r("order", "O(σ0 + αM/t)·O(1) = O(σ0) for αM/t ≤ σ0", order["holds"],
            "exponent 1", row=order)],
        "1. Both losses depend on $\\theta$ only through $\\pi_{m_t}(X_t,\\Theta_t)$: "
        "$L_{loc}=\\pi_{m_t}\\|\\Delta w\\|^2$ and $L_{aux}=\\alpha Mf_t^{(m_t)}\\pi_{m_t}/t+"
        "\\text{const}$, so every gradient is $(\\|\\Delta w\\|^2+\\alpha Mf/t)\\,\\partial"
        "\\pi_{m_t}/\\partial\\theta^{(m)}$ and the difference factorises.\n2. "
        "$|\\partial\\pi_{m_t}/\\partial\\theta^{(m)}-\\partial\\pi_{m_t}/\\partial\\theta^{(m_t)}|"
        "=\\pi_{m_t}(\\pi_m+1-\\pi_{m_t})|S|\\le2|S|$, so the difference is $O(\\sigma_0)$ "
        "given $\\|\\Delta w\\|^2=O(\\sigma_0)$ and $\\alpha M/t\\le\\sigma_0$ (whose range is "
        "`cl.lemma14.aux-coefficient`).",
    )


@_claim(
    "cl.prop2.extreme-pair-step", [634], [],
    "Proof of Prop. 2: with M' and m' the experts of M_n of largest and smallest softmax value, "
    "|h_{M'} − h_{m'}| = O(σ0^1.75) implies the same for every two experts of M_n (L634).",
    "At one input X_t, π_m = e^{h_m}/Z is increasing in h_m (SymPy derivative), so M', m' "
    "are argmax/argmin of h over M_n and their gap is the largest pairwise gap; checked "
    "symbolically and on every ordering of three gate values.",
)
def check_extreme_pair(ctx: CheckContext) -> Outcome:
    h = sp.symbols("h1:4", real=True)
    Z = sum(sp.exp(x) for x in h)
    deriv = sp.simplify(sp.diff(sp.exp(h[0]) / Z, h[0]) - sp.exp(h[0]) / Z * (1 - sp.exp(h[0]) / Z))
    vals = [sp.Rational(1, 3), sp.Rational(-2, 5), sp.Rational(7, 4)]
    ok = True
    for perm in itertools.permutations(vals):
        pis = [sp.exp(v) / sum(sp.exp(u) for u in perm) for v in perm]
        top = max(range(3), key=lambda i: (pis[i] - pis[0]).evalf(30))
        bot = min(range(3), key=lambda i: (pis[i] - pis[0]).evalf(30))
        widest = max(abs(a - b) for a, b in itertools.combinations(perm, 2))
        ok = ok and perm[top] - perm[bot] == widest
    return _out(
        [_r("extreme-pair", "the M'–m' gap bounds every pair of M_n", deriv == 0 and ok,
            "∂π_m/∂h_m = π_m(1 − π_m) > 0; on all 6 orderings the extreme pair has the widest gap",
            derivative_residual=str(deriv))],
        "1. $\\partial\\pi_m/\\partial h_m=\\pi_m(1-\\pi_m)>0$ at a fixed input, so the "
        "softmax order over $M_n$ is the order of $h$.\n2. For reals, "
        "$|h_a-h_b|\\le\\max h-\\min h$; the step holds.",
    )


@_claim(
    "cl.prop2.m-lt-n-theta-gap", [644, 676, 680], [],
    "M < N version of the same-set step of Prop. 2: m' and M' converge to the same value up to "
    "one update (L644, L676), |θ^{(M')}_{t1} − θ^{(m')}_{t1}|∞ = η‖∇L_loc^{t1−1} + "
    "∇L_aux^{t1−1}‖ = O(σ0^1.75) from ∇L_aux = O(σ0^1.25) and ∇L_loc = O(σ0^1.5) (Lemma 12) "
    "(L680).",
    "η = σ0^0.5 (L382); the aux gradient at round t1 − 1 is αM f/t1·∂π with f, ∂π = Θ(1/M) "
    "(as in cl.prop2.theta-gap-order). Readings: the local term alone, and the algebra given "
    "the stated premises.",
)
def check_m_lt_n_theta_gap(ctx: CheckContext) -> Outcome:
    t1 = M_ / PAPER_ETA * s0 ** sp.Rational(-1, 4)
    aux = alpha * M_ / t1 / M_**2
    step = _order("eta*(grad_loc + grad_aux)", PAPER_ETA * aux, sp.Rational(7, 4), "O")
    loc = _order("eta*O(sigma0^1.5)", PAPER_ETA * s0 ** sp.Rational(3, 2), sp.Rational(7, 4), "O")
    alg = _order("eta*O(sigma0^1.25)", PAPER_ETA * s0 ** sp.Rational(5, 4), sp.Rational(7, 4), "O")
    return _out(
        [_r("conclusion", "η‖∇L_loc + ∇L_aux‖ = O(σ0^1.75) at t1 − 1",
            step["holds"] and loc["holds"],
            "the aux term is η·Θ(σ0^0.75) = Θ(σ0^1.25): exponent 1.25 < 1.75", row=step),
         _r("local-term", "η·O(σ0^1.5) = O(σ0^1.75)", loc["holds"], "exponent 2 ≥ 1.75", row=loc),
         _r("algebra-only", "σ0^0.5·(σ0^1.5 + σ0^1.25) = O(σ0^1.75)", alg["holds"] and loc["holds"],
            "smallest exponent 1.75", row=alg)],
        "1. $t_1=\\sigma_0^{-0.75}M$ under $\\eta=\\sigma_0^{0.5}$, so $\\alpha M/t_1\\cdot f\\cdot"
        "\\partial\\pi=\\Theta(\\sigma_0^{0.75})$, not $O(\\sigma_0^{1.25})$.\n2. The local "
        "term adds $\\eta\\,O(\\sigma_0^{1.5})=O(\\sigma_0^2)$, harmless.\n3. The exponent sum "
        "given the stated premises is right; the premise on $\\nabla L_{aux}$ fails as in "
        "$M>N$ (`cl.prop2.theta-gap-order`).",
    )


@_claim(
    "cl.prop3.m-lt-n-margin", [707], [],
    "Proof of Prop. 3, M < N: with gate gaps Θ(σ0^0.75) across sets and O(Γ) within, "
    "h_m + r_m − (h_m' + r_m') = Θ(σ0^0.75) for any m, m' not in the same set M_k (L707).",
    "r ~ Unif[0, λ] with λ = σ0^1.25 (Appendix A.4): |r_m − r_m'| ≤ λ; exponent comparison of "
    "the two bounds c1σ0^0.75 − λ and c2σ0^0.75 + λ.",
)
def check_m_lt_n_margin(ctx: CheckContext) -> Outcome:
    c1, c2 = sp.symbols("c1 c2", positive=True)
    lam_v = s0 ** sp.Rational(5, 4)
    lo = sp.limit((c1 * s0 ** sp.Rational(3, 4) - lam_v) / s0 ** sp.Rational(3, 4), s0, 0)
    hi = sp.limit((c2 * s0 ** sp.Rational(3, 4) + lam_v) / s0 ** sp.Rational(3, 4), s0, 0)
    ok = lo == c1 and hi == c2
    return _out(
        [_r("margin", "Θ(σ0^0.75) gap plus noise of range λ = σ0^1.25 stays Θ(σ0^0.75)", ok,
            f"(c1σ0^0.75 ∓ λ)/σ0^0.75 → {lo}, {hi}: the noise is o(σ0^0.75)",
            lower_limit=str(lo), upper_limit=str(hi))],
        "1. $|r_m-r_{m'}|\\le\\lambda=\\sigma_0^{1.25}=o(\\sigma_0^{0.75})$.\n2. So the "
        "noisy gap lies between $c_1\\sigma_0^{0.75}-\\lambda$ and $c_2\\sigma_0^{0.75}+"
        "\\lambda$, both $\\Theta(\\sigma_0^{0.75})$: the step holds given its premises "
        "(checked on the simulator by `cl.prop3.frozen-gaps`).",
    )


@_claim(
    "cl.lemma16.projection-recursion", [745, 747], [],
    "Proof of Lemma 16: ‖w_t^{(m_i)} − w_{n_i}‖² = ‖w^{(m_i)}_{τ(L_t)} − w_{n_i}‖² = "
    "‖(I − P_t)w^{(m_i)}_{τ(L_t − 1)} + P_t w_{τ(L_t)} − w_{n_i}‖² (L745), by eq. (5).",
    "Primary: literally with P_t, the projection of round t, when the expert's last update "
    "τ(L_t) was before t (task of round t routed elsewhere); exact instance d = 2, s = 1. "
    "Reading: with P_{τ(L_t)}, the projection of the round of that update (SymPy identity).",
)
def check_projection_recursion(ctx: CheckContext) -> Outcome:
    P = lambda X: X * (X.T * X).inv() * X.T  # noqa: E731
    e1, e2 = sp.Matrix([1, 0]), sp.Matrix([0, 1])
    w_prev, w_task = sp.Matrix([0, 0]), sp.Matrix([1, 1])
    w_after = w_prev + P(e1) * (w_task - w_prev)  # expert updated at τ with X_τ = e1
    literal = (sp.eye(2) - P(e2)) * w_prev + P(e2) * w_task  # P_t of a later round, X_t = e2
    x = sp.Matrix(sp.symbols("x1:4", real=True))
    w = sp.Matrix(sp.symbols("w1:4", real=True))
    ws = sp.Matrix(sp.symbols("u1:4", real=True))
    Pg = x * x.T / (x.T * x)[0]
    resid = (w + Pg * (ws - w) - ((sp.eye(3) - Pg) * w + Pg * ws)).applyfunc(sp.expand)
    return _out(
        [_r("P_t", "with the projection P_t of round t", literal == w_after,
            f"X_τ = e1, X_t = e2: w_τ = {list(w_after)} but (I − P_t)w + P_t w* = {list(literal)}",
            w_after_update=[str(v) for v in w_after], literal=[str(v) for v in literal]),
         _r("P_tau", "with P_{τ(L_t)}", all(v == 0 for v in resid),
            "w + P(w* − w) = (I − P)w + Pw* (SymPy, d = 3, s = 1, symbolic X, w, w*)")],
        "1. Eq. (5) with $y=X^\\top w^*$ gives $w_\\tau=w_{\\tau-1}+P_\\tau(w^*-w_{\\tau-1})="
        "(I-P_\\tau)w_{\\tau-1}+P_\\tau w^*$, with the projection of the round $\\tau$ of the "
        "update.\n2. L745 writes $P_t$; it equals $P_{\\tau(L_t)}$ only when the expert was "
        "updated at round $t$ itself: an index slip, harmless once read as $P_{\\tau(L_t)}$.",
    )


def _eq42(r: sp.Expr, W: sp.Expr, e: list[sp.Expr], L: int) -> sp.Expr:
    """Right side of eq. (42) after L updates of the expert, with e[k-1] its k-th gap term."""
    return r**L * W + sum((1 - r) * r ** (L - k) * e[k - 1] for k in range(1, L + 1))


@_claim(
    "cl.thm1.proof-forgetting-expansion", [757, 759, 761, 763, 765, 769, 771], [],
    "Proof of Theorem 1: eq. (42) at t = i (with τ(L_i) = i, L759–761) subtracted from (42) "
    "at t gives E[F_t] = 1/(t−1) Σ_{i<t} [ (r^{L_t} − r^{L_i}) E‖w_{n_i}‖² + Σ_{l≤L_t}(1−r)"
    "r^{L_t−l} e_l − Σ_{j≤L_i}(1−r) r^{L_i−j} e_j ] (L765), with E‖w_{n_i}‖² = (1/N)Σ_n‖w_n‖² "
    "(L771).",
    "SymPy, symbolic r, E‖w_{n_i}‖² and gap terms e_l, for every L_i ≤ L_t ≤ 4 (the expert's "
    "updates up to i are a prefix of those up to t); L771 for a uniform draw from N = 3 truths.",
)
def check_thm1_expansion(ctx: CheckContext) -> Outcome:
    r, W = sp.symbols("r W", positive=True)
    e = list(sp.symbols("e1:5", nonnegative=True))
    resid = []
    for Lt in range(1, 5):
        for Li in range(1, Lt + 1):
            diff = _eq42(r, W, e, Lt) - _eq42(r, W, e, Li)
            bracket = ((r**Lt - r**Li) * W
                       + sum((1 - r) * r ** (Lt - k) * e[k - 1] for k in range(1, Lt + 1))
                       - sum((1 - r) * r ** (Li - j) * e[j - 1] for j in range(1, Li + 1)))
            resid.append(sp.expand(diff - bracket))
    norms = sp.symbols("S1:4", nonnegative=True)
    uniform = sp.simplify(sum(sp.Rational(1, 3) * s for s in norms) - sum(norms) / 3)
    return _out(
        [_r("expansion", "(42) at t minus (42) at i is the bracket of L765",
            all(x == 0 for x in resid), f"{len(resid)} pairs (L_i, L_t), every residual 0"),
         _r("uniform-draw", "E‖w_{n_i}‖² = (1/N)Σ_n ‖w_n‖²", uniform == 0,
            "n_i uniform on [N] (Definition 1)")],
        "1. The expert's updates up to round $i$ are the first $L_i$ of those up to $t$ "
        "($\\tau(L_i)=i$ by definition), so the same gap terms $e_l$ appear in both.\n2. "
        "Subtracting (42) at $i$ from (42) at $t$ term by term gives L765's bracket "
        "(linearity of expectation); the step holds given (42), whose own verdict is "
        "`cl.lemma16.expert-model-step`.\n3. L771 is the mean of a uniform draw.",
    )


@_claim(
    "cl.thm2.proof-forgetting-split", [787, 789, 793, 795, 797], [],
    "Proof of Theorem 2: E[F_t] = 1/(t−1) Σ_{i=1}^{t−1} E[‖w_t^{(m_i)} − w_{n_i}‖² − "
    "‖w_i^{(m_i)} − w_{n_i}‖²] = 1/(t−1) Σ_{i=1}^{T1}[(r^{L_t} − r^{L_i})E‖w_{n_i}‖² + "
    "Σ_{l≤L_t}(1−r)r^{L_t−l}e_l] + 1/(t−1) Σ_{i=T1+1}^{t}[same bracket] (L789–793).",
    "SymPy with (42) for E‖w_t^{(m_i)} − w_{n_i}‖² (ground-truth gap terms, "
    "cl.lemma16.expert-model-step), one expert trained on tasks n = (1, 2, 1), t = 3, T1 = 1, "
    "gap ‖w_1 − w_2‖² = D. Reading: the split with the subtracted sum of L765 and i < t.",
)
def check_thm2_split(ctx: CheckContext) -> Outcome:
    r, W, D = sp.symbols("r W D", positive=True)
    tasks, t = (1, 2, 1), 3

    def gaps(i: int) -> list[sp.Expr]:  # e_k for task i: ‖w_{n_{τ(k)}} − w_{n_i}‖²
        return [0 if tasks[k] == tasks[i - 1] else D for k in range(len(tasks))]

    def A(i: int, L: int) -> sp.Expr:
        return _eq42(r, W, gaps(i), L)

    truth = sum(A(i, t) - A(i, i) for i in range(1, t)) / (t - 1)
    bracket = {i: (r**t - r**i) * W + sum((1 - r) * r ** (t - k) * gaps(i)[k - 1]
                                          for k in range(1, t + 1)) for i in range(1, t + 1)}
    seed = sum(bracket[i] for i in range(1, t + 1)) / (t - 1)
    corrected = sum(bracket[i] - sum((1 - r) * r ** (i - j) * gaps(i)[j - 1]
                                     for j in range(1, i + 1)) for i in range(1, t)) / (t - 1)
    gap = sp.factor(sp.expand(seed - truth))
    return _out(
        [_r("literal", "the split of L789–793", gap == 0,
            "seed − E[F_t] = D·r·(1 − r) > 0 for 0 < r < 1, D > 0"
            if sp.expand(gap - D * r * (1 - r)) == 0 else f"seed − E[F_t] = {gap}",
            difference=str(gap)),
         _r("corrected", "with −Σ_{j≤L_i}(1−r)r^{L_i−j}e_j and i ≤ t − 1",
            sp.expand(corrected - truth) == 0, "equals E[F_t] (residual 0)")],
        "1. By (42), $E\\|w_t^{(m_i)}-w_{n_i}\\|^2-E\\|w_i^{(m_i)}-w_{n_i}\\|^2$ is L765's "
        "bracket, with the subtracted sum over $j\\le L_i$.\n2. L789–793 drop that sum and "
        "add the term $i=t$; for tasks $(1,2,1)$ both omissions are positive multiples of "
        "$D=\\|w_1-w_2\\|^2$, so the expression exceeds $E[F_t]$.\n3. Restoring the sum and "
        "$i\\le t-1$ gives $E[F_t]$ exactly.",
    )
