"""The general facts the proofs of Li et al. (2025) invoke, checked in the norm and the
setting each proof uses them (issue 32, "a second kind of proof reading").

The step checks of :mod:`.lemmas`, :mod:`.proofs` and :mod:`.training` read each printed step;
this module checks the tools those steps lean on: that an orthogonal projection does not
expand distances (in which norm), that an update stays within the spread of its targets,
that a union of events may be bounded by a product, Bernoulli's inequality, a symmetry that
makes every expert set equally likely, and the invertibility behind the update (5). Each
claim records its seed lines and decides the fact by a counterexample with numbers or by a
certificate.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import mpmath
import numpy as np
import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict
from proofs_checks.li2025continual._common import exact_claim
from proofs_checks.li2025continual._exact import _out, _r

__all__ = [
    "check_bernoulli_step",
    "check_gram_invertible",
    "check_nonexpansive",
    "check_product_step",
    "check_symmetry_step",
    "check_update_spread",
    "multinomial_all_within",
]


def _sup(v: sp.Matrix) -> sp.Expr:
    return sp.Max(*[abs(x) for x in v])


def _projection(X: sp.Matrix) -> sp.Matrix:
    """``X (XᵀX)⁻¹ Xᵀ``, exact."""
    return sp.simplify(X * (X.T * X).inv() * X.T)


# --------------------------------------------------------------------------------------
# Proposition 1, M < N (Appendix E.8, L558-560 and its repeat at L594-596)
# --------------------------------------------------------------------------------------


@exact_claim(
    "cl.prop1.m-lt-n-nonexpansive", [560], [],
    "'Since the orthogonal projection matrices P_t are non-expansive operators', for every "
    "t ∈ {T1 + 1, …, T}: ‖w_t^{(m)} − w^{(m)}‖∞ ≤ ‖w_{t−1}^{(m)} − w^{(m)}‖∞ ≤ … ≤ "
    "‖w_{T1}^{(m)} − w^{(m)}‖∞ (L560), the step map being u ↦ (I − P_t)u (L558).",
    "Primary: in the ℓ∞ norm the chain is written in, (I − P)u with P the orthogonal "
    "projection onto the columns of a Definition-1 matrix (one signal column, the others "
    "noise): an exact instance (d = 3, s = 2) and 2000 draws at Appendix A.2's sizes "
    "(d = 10, s = 6, σ_t = 0.1). Readings: the ℓ2 norm (where projections are "
    "non-expansive), and ℓ∞ with the constant √d.",
)
def check_nonexpansive(ctx: CheckContext) -> Outcome:
    v = sp.Matrix([1, -1, -1])  # the signal column β_t v_n (β_t = 1)
    g = sp.Matrix([0, 1, -1])  # a noise column
    X = sp.Matrix.hstack(v, g)
    P = _projection(X)
    Q = sp.eye(3) - P
    u = sp.Matrix([1, 1, 1])
    Qu = Q * u
    ratio = _sup(Qu) / _sup(u)
    # ℓ2: P symmetric and idempotent, so ‖u‖² − ‖(I − P)u‖² = ‖Pu‖² ≥ 0 (checked for a
    # symbolic u on this instance, and the two defining identities of P)
    a = sp.Matrix(sp.symbols("u1:4", real=True))
    pyth = sp.expand((a.T * a)[0] - ((Q * a).T * (Q * a))[0] - ((P * a).T * (P * a))[0])
    orth = (P.T - P, P * P - P)
    l2_ok = pyth == 0 and all(m == sp.zeros(3, 3) for m in orth)
    # Definition-1 draws at Appendix A.2's sizes (fixed generator: the claim is exact)
    rng = np.random.default_rng(20250532)
    d, s, draws = 10, 6, 2000
    ratios = np.empty(draws)
    for k in range(draws):
        Xd = np.column_stack([rng.uniform(-1.0, 1.0, d)] + [rng.normal(0.0, 0.1, d)
                                                            for _ in range(s - 1)])
        basis, _ = np.linalg.qr(Xd)
        ud = rng.standard_normal(d)
        ratios[k] = np.abs(ud - basis @ (basis.T @ ud)).max() / np.abs(ud).max()
    scan = {"draws": draws, "d": d, "s": s, "sigma_t": 0.1,
            "share_with_ratio_above_1": float(np.mean(ratios > 1.0)),
            "largest_ratio": float(ratios.max()), "sqrt_d": math.sqrt(d)}
    return _out(
        [_r("ell-inf", "‖(I − P_t)u‖∞ ≤ ‖u‖∞ (the chain of L560)", bool(ratio <= 1),
            f"X_t = [v, g], v = (1, −1, −1), g = (0, 1, −1), u = (1, 1, 1): (I − P_t)u = "
            f"{list(Qu)}, ‖·‖∞ = {ratio} > 1 = ‖u‖∞; at d = 10, s = 6 the ratio exceeds 1 for "
            f"{scan['share_with_ratio_above_1']:.1%} of Gaussian u (largest "
            f"{scan['largest_ratio']:.3f})",
            instance={"X_t": X, "u": list(u), "(I-P_t)u": list(Qu), "ratio": ratio},
            definition1_scan=scan),
         _r("ell-2", "‖(I − P_t)u‖₂ ≤ ‖u‖₂", l2_ok,
            "P_t = P_tᵀ = P_t², so ‖u‖₂² = ‖P_t u‖₂² + ‖(I − P_t)u‖₂² (Pythagoras)",
            pythagoras_residual=pyth),
         _r("ell-inf-sqrt-d", "‖(I − P_t)⋯(I − P_{T1+1})u‖∞ ≤ √d‖u‖∞", l2_ok
            and scan["largest_ratio"] <= scan["sqrt_d"],
            "‖·‖∞ ≤ ‖·‖₂ ≤ ‖u‖₂ ≤ √d‖u‖∞ along the whole product (ℓ2 step by step): the "
            "O(·) order of L560 survives with the constant √d, d fixed", origin="package")],
        "1. $P_t=X_t(X_t^\\top X_t)^{-1}X_t^\\top$ is symmetric and idempotent, so "
        "$\\|u\\|_2^2=\\|P_tu\\|_2^2+\\|(I-P_t)u\\|_2^2$: $I-P_t$ is non-expansive in $\\ell_2$.\n"
        "2. The proof applies it in $\\ell_\\infty$. With the signal column $v=(1,-1,-1)$ and "
        "a noise column $g=(0,1,-1)$, the complement of the columns is spanned by $(2,1,1)$ and "
        "$(I-P_t)(1,1,1)=\\tfrac23(2,1,1)$: $\\ell_\\infty$ norm $4/3>1$.\n"
        "3. Norm equivalence gives $\\|\\prod_t(I-P_t)u\\|_\\infty\\le\\sqrt d\\,\\|u\\|_\\infty$, "
        "so the order (with $d$ fixed) survives, but not the chain of inequalities as written.",
    )


@exact_claim(
    "cl.prop1.m-lt-n-update-spread", [560, 594, 596], [],
    "‖w_t^{(m)} − w_{T1+1}^{(m)}‖∞ ≤ ‖w_t^{(m)} − w^{(m)}‖∞ + ‖w^{(m)} − w_{T1+1}^{(m)}‖∞ ≤ "
    "max_{w_n, w_n' ∈ W_k} ‖w_n − w_n'‖∞ = O(σ0^1.5): the first by the 'union bound', the "
    "second 'because each task updates w_t^{(m)} by an orthogonal projection' (L560, L594–596).",
    "Primary: the second inequality for an expert m ∈ M_k that after T1 receives only tasks of "
    "its cluster W_k, each update being eq. (5); exact instance with a one-task cluster (spread "
    "0), d = 3, s = 2, Definition-1 matrices sharing the task's signal column. Reading: what "
    "an orthogonal-projection step does bound (the distance to its own target).",
)
def check_update_spread(ctx: CheckContext) -> Outcome:
    e1, e2, e3 = (sp.eye(3)[:, i] for i in range(3))
    w_n = sp.Matrix([1, 1, 1])  # the cluster's only ground truth: spread 0
    X1 = sp.Matrix.hstack(e1, e2)  # signal column v_n = e1, noise column e2
    X2 = sp.Matrix.hstack(e1, e3)  # the same task again: same signal, a new noise column
    w_prev = sp.zeros(3, 1)
    w_a = w_prev + _projection(X1) * (w_n - w_prev)  # round T1 + 1
    w_b = w_a + _projection(X2) * (w_n - w_a)  # round T1 + 2
    move = _sup(w_b - w_a)
    spread = sp.Integer(0)
    step_l2 = sp.sqrt(((w_b - w_a).T * (w_b - w_a))[0])
    dist_l2 = sp.sqrt(((w_n - w_a).T * (w_n - w_a))[0])
    return _out(
        [_r("spread", "‖w_t − w_{T1+1}‖∞ ≤ max_{n,n' ∈ W_k}‖w_n − w_n'‖∞", bool(move <= spread),
            f"one-task cluster w_n = (1, 1, 1) (spread 0); X = [e1, e2] then [e1, e3]: "
            f"w_{{T1+1}} = {list(w_a)}, w_{{T1+2}} = {list(w_b)}, a move of {move} > 0",
            w_T1_plus_1=list(w_a), w_T1_plus_2=list(w_b), move_sup=move, spread=spread),
         _r("distance-to-target", "‖w_t − w_{t−1}‖₂ ≤ ‖w_{n_t} − w_{t−1}‖₂",
            bool(step_l2 <= dist_l2),
            "an update (5) moves w by P_t(w_{n_t} − w_{t−1}): at most its distance to the "
            "current target, which the spread of the targets does not bound (it is O(‖w_n‖), "
            "not O(σ0^1.5), after a partial fit)", step=step_l2, distance=dist_l2,
            origin="package")],
        "1. Eq. (5) gives $w_t-w_{t-1}=P_t(w_{n_t}-w_{t-1})$: the move is the projection of the "
        "current residual, not a difference of ground truths.\n2. After one fit of task $n$ "
        "($d=3$, $s=2$) the expert sits at $P_1w_n=(1,1,0)\\ne w_n$; the same task with a new "
        "noise column moves it to $(1,1,1)$. The cluster has one task, so "
        "$\\max\\|w_n-w_{n'}\\|_\\infty=0<1$.\n3. The same happens at any spread: the residual "
        "$(I-P)w_n$ left by the earlier fits is of the order of $\\|w_n\\|$.",
    )


# --------------------------------------------------------------------------------------
# Lemma 8 (Appendix E.2, L466-474) and Lemma 11 (Appendix E.5, L504-512)
# --------------------------------------------------------------------------------------


def _compositions(T: int, M: int) -> list[tuple[int, ...]]:
    if M == 1:
        return [(T,)]
    return [(a, *rest) for a in range(T + 1) for rest in _compositions(T - a, M - 1)]


@cache
def multinomial_all_within(M: int, T: int, eps: Fraction) -> tuple[Fraction, Fraction]:
    """For ``T`` rounds routed independently and uniformly to ``M`` experts: the exact
    probabilities that every share, and that one given share, is within ``eps`` of ``1/M``.

    Parameters
    ----------
    M, T : int
        Experts (>= 1) and rounds (>= 1).
    eps : Fraction
        The deviation ``ε >= 0``.

    Returns
    -------
    tuple of Fraction
        ``(P(|f_m − 1/M| ≤ ε for all m), P(|f_1 − 1/M| ≤ ε))``.

    Raises
    ------
    ValueError
        If ``M`` or ``T`` is below 1 or ``eps`` negative.

    Examples
    --------
    >>> multinomial_all_within(3, 6, Fraction(1, 3))
    (Fraction(230, 243), Fraction(716, 729))
    """
    if M < 1 or T < 1 or eps < 0:
        raise ValueError(f"need M >= 1, T >= 1 and eps >= 0, got M={M}, T={T}, eps={eps}")

    def ok(n: int) -> bool:
        return abs(Fraction(n, T) - Fraction(1, M)) <= eps

    def prob(c: tuple[int, ...]) -> Fraction:
        p = Fraction(math.factorial(T))
        for x in c:
            p /= math.factorial(x)
        return p / Fraction(M) ** T

    joint = sum((prob(c) for c in _compositions(T, M) if all(ok(x) for x in c)), Fraction(0))
    marginal = sum((Fraction(math.comb(T, n) * (M - 1) ** (T - n), M**T)
                    for n in range(T + 1) if ok(n)), Fraction(0))
    return joint, marginal


@exact_claim(
    "cl.lemma8.product-step", [470, 472], [],
    "P(|f_{T1}^{(m)} − 1/M| ≤ ε for all m ∈ [M]) ≥ (1 − 2exp(−2ε²T1))^M ≥ 1 − 2M exp(−2ε²T1) "
    "(L472), from the per-expert bound P(|f_{T1}^{(m)} − 1/M| ≤ ε) ≥ 1 − 2exp(−2ε²T1) (L468).",
    "In the setting most favourable to the step: the T1 rounds routed independently and "
    "uniformly (exact multinomial probabilities, rationals). Primary: the product step behind "
    "the first inequality, P(∩_m A_m) ≥ ∏_m P(A_m) for A_m = {|f_m − 1/M| ≤ ε}. Readings: the "
    "printed chain for every ε > 0; Boole's inequality in its place; Bernoulli's inequality "
    "(the second step).",
)
def check_product_step(ctx: CheckContext) -> Outcome:
    # Figure 2's η = 1/2: T1 = ⌈M/η⌉ = 6 rounds for M = 3 experts
    M, T1, eps = 3, 6, Fraction(1, 3)
    joint, marginal = multinomial_all_within(M, T1, eps)
    product = marginal**M
    # the printed chain where the per-expert bound is negative (M even): M = 2, T1 = 3
    M2, T2, eps2 = 2, 3, Fraction(1, 10)
    joint2, _ = multinomial_all_within(M2, T2, eps2)
    x2 = 2 * sp.exp(-2 * sp.Rational(eps2) ** 2 * T2)
    printed2 = (1 - x2) ** M2
    # Bernoulli: g(x) = (1 − x)^M − (1 − Mx) has g(0) = 0 and g'(x) = M(1 − (1 − x)^(M−1))
    # >= 0 on [0, 2], since |1 − x| <= 1 there (checked symbolically for M = 1..12)
    x = sp.Symbol("x", real=True)
    bern = []
    for m in range(1, 13):
        g = (1 - x) ** m - (1 - m * x)
        dg = sp.factor(sp.diff(g, x))
        residual = sp.expand(dg - m * (1 - (1 - x) ** (m - 1)))
        bern.append({"M": m, "g(0)": g.subs(x, 0), "g'(x)": dg, "residual": residual})
    bern_ok = all(b["g(0)"] == 0 and b["residual"] == 0 for b in bern)
    return _out(
        [_r("product", "P(∩_m A_m) ≥ ∏_m P(A_m)", joint >= product,
            f"M = {M}, T1 = {T1} (η = 1/2), ε = 1/3: P(all shares within ε) = {joint} ≈ "
            f"{float(joint):.5f} < ({marginal})^{M} ≈ {float(product):.5f}: the shares of one "
            "multinomial are not independent, even with independent rounds",
            joint=str(joint), marginal=str(marginal), product=str(product)),
         _r("printed", "P(∩_m A_m) ≥ (1 − 2e^{−2ε²T1})^M for every ε > 0",
            bool(sp.Rational(joint2.numerator, joint2.denominator) >= printed2),
            f"M = 2, T1 = 3, ε = 1/10: no share is within ε of 1/2 (f ∈ {{0, 1/3, 2/3, 1}}), "
            f"so P = {joint2}, while (1 − 2e^{{−0.06}})² ≈ {float(printed2):.4f}: a product of "
            "negative lower bounds is not a lower bound (the chain's end, 1 − 4e^{−0.06} < 0, "
            "still holds)", joint=str(joint2), printed=printed2),
         _r("boole", "P(∩_m A_m) ≥ 1 − Σ_m P(A_m^c) ≥ 1 − 2M e^{−2ε²T1}", True,
            "Boole's inequality needs no independence: the conclusion of L472 follows from the "
            "per-expert bound of L468 whenever that bound holds", origin="package"),
         _r("bernoulli", "(1 − x)^M ≥ 1 − Mx for 0 ≤ x ≤ 2", bern_ok,
            "g(x) = (1 − x)^M − 1 + Mx has g(0) = 0 and g'(x) = M(1 − (1 − x)^{M−1}) ≥ 0 "
            "because |1 − x| ≤ 1", rows=bern)],
        "1. With independent uniform rounds the counts are multinomial; for $M=3$, $T_1=6$ the "
        "event that every count is at most 4 has probability $1-3\\cdot13/729=230/243$, below "
        "$(716/729)^3$: the proof's product needs independence of the $M$ shares, which sum "
        "to 1.\n2. When $2e^{-2\\varepsilon^2T_1}>1$ and $M$ is even, "
        "$(1-2e^{-2\\varepsilon^2T_1})^M>0$ can exceed the probability itself.\n3. Boole's "
        "inequality gives the last bound directly; Bernoulli's inequality, the second step, "
        "holds.",
    )


@exact_claim(
    "cl.lemma11.bernoulli-step", [510, 512], [],
    "(1 − (1 − 1/N)^M)^N ≥ 1 − N exp(−M/N), the second inequality of L510, 'because "
    "(1 − 1/N)^M is small enough' (L512).",
    "For every N, M ≥ 1 (no smallness): Bernoulli's inequality (1 − q)^N ≥ 1 − Nq for "
    "q ∈ [0, 1] (symbolic derivative) and q = (1 − 1/N)^M ≤ e^{−M/N}; confirmed exactly on a "
    "grid of (N, M).",
)
def check_bernoulli_step(ctx: CheckContext) -> Outcome:
    q, xx = sp.Symbol("q", nonnegative=True), sp.Symbol("x", nonnegative=True)
    n_sym = sp.Symbol("N", positive=True, integer=True)
    g = (1 - q) ** n_sym - (1 - n_sym * q)
    dg = sp.diff(g, q)
    dg_form = sp.powsimp(sp.expand(dg - n_sym * (1 - (1 - q) ** (n_sym - 1))))
    exp_gap = sp.exp(-xx) - (1 - xx)
    exp_slope = sp.diff(exp_gap, xx)  # 1 − e^{−x} ≥ 0
    n_max, m_max = (25, 150) if ctx.full else (12, 60)
    worst: tuple[int, int, float] | None = None
    fails = []
    with mpmath.workdps(40):
        for n in range(1, n_max + 1):
            for m in range(1, m_max + 1):
                lhs = (1 - (1 - Fraction(1, n)) ** m) ** n
                gap = (mpmath.mpf(lhs.numerator) / lhs.denominator
                       - (1 - n * mpmath.exp(-mpmath.mpf(m) / n)))
                if gap < 0:
                    fails.append((n, m))
                if worst is None or gap < worst[2]:
                    worst = (n, m, float(gap))
    ok = dg_form == 0 and exp_gap.subs(xx, 0) == 0 and not fails
    return _out(
        [_r("all-N-M", "(1 − (1 − 1/N)^M)^N ≥ 1 − N e^{−M/N} for every N, M ≥ 1", ok,
            "Bernoulli's inequality for q = (1 − 1/N)^M ∈ [0, 1], then q ≤ e^{−M/N}; no "
            f"smallness of q is needed (grid N ≤ {n_max}, M ≤ {m_max}: smallest margin "
            f"{worst[2]:.3g} at N = {worst[0]}, M = {worst[1]})" if worst else "",
            bernoulli_derivative=dg, derivative_form_residual=dg_form,
            exp_bound_slope=exp_slope, grid_failures=fails)],
        "1. $g(q)=(1-q)^N-(1-Nq)$ has $g(0)=0$ and $g'(q)=N\\bigl(1-(1-q)^{N-1}\\bigr)\\ge0$ on "
        "$[0,1]$.\n2. $e^{-x}\\ge1-x$ ($x\\ge0$) gives $(1-1/N)^M\\le e^{-M/N}$.\n3. Together "
        "$(1-q)^N\\ge1-Nq\\ge1-Ne^{-M/N}$ for all $N,M\\ge1$: the step holds, and the reason "
        "given ('small enough') is not needed. The first inequality of L510 is "
        "`cl.lemma11.product-step`.",
    )


@exact_claim(
    "cl.lemma11.symmetry-step", [125, 504, 506], [],
    "If M > N, by symmetry P(m ∈ M_n) = 1/N for every n ∈ [N] and m ∈ [M] (L504), with "
    "M_n = {m : n = argmax_j (θ_t^{(m)})ᵀv_j} (L125).",
    "Primary: Definition 1's fixed distinct signals v_1, …, v_N (L53, L61) and any law of "
    "the gate θ^{(m)} (argmax ties, a null set for a gate with a density, broken towards the "
    "lower index): a signal in the convex hull of the others is never the argmax. "
    "Readings: equal-norm fixed signals with an isotropic gate (exact cone angles); signals "
    "drawn exchangeably (i.i.d. from a rotation-invariant law, as Appendix A.2 scales Gaussian "
    "ground truths).",
)
def check_symmetry_step(ctx: CheckContext) -> Outcome:
    th = sp.Matrix(sp.symbols("theta1:3", real=True))
    v1, v2 = sp.Matrix([1, 0]), sp.Matrix([0, 1])
    v3 = (v1 + v2) / 2
    hull_gap = sp.expand((th.T * v3)[0] - ((th.T * v1)[0] + (th.T * v2)[0]) / 2)
    # equal norms, isotropic θ: the normal cones of (1, 0), (0, 1), (−1, 0)
    angles = {"(1, 0)": sp.pi * 3 / 4, "(0, 1)": sp.pi / 2, "(-1, 0)": sp.pi * 3 / 4}
    shares = {k: a / (2 * sp.pi) for k, a in angles.items()}
    # check the cone of (0, 1) exactly: θ = (cos φ, sin φ) picks it iff sin φ > ±cos φ
    phi = sp.Symbol("phi", real=True)
    circle = sp.Interval(0, 2 * sp.pi)
    cone = sp.Intersection(sp.solveset(sp.sin(phi) - sp.cos(phi) > 0, phi, circle),
                           sp.solveset(sp.sin(phi) + sp.cos(phi) > 0, phi, circle))
    cone_ok = cone == sp.Interval.open(sp.pi / 4, 3 * sp.pi / 4)
    share_up = cone.measure / (2 * sp.pi) if cone_ok else None
    return _out(
        [_r("fixed-signals", "P(m ∈ M_n) = 1/N for fixed distinct signals", hull_gap != 0,
            "v_1 = (1, 0), v_2 = (0, 1), v_3 = (1/2, 1/2): θᵀv_3 = (θᵀv_1 + θᵀv_2)/2 never "
            "exceeds both, so M_3 is empty for every gate and every M (P = 0, and Lemma 11's "
            "conclusion fails)", hull_identity_residual=hull_gap),
         Reading("isotropic-gate", "equal-norm fixed signals, θ isotropic",
                 Verdict.REFUTED if share_up is not None and share_up != sp.Rational(1, 3)
                 else Verdict.INCONCLUSIVE,
                 f"v = (1, 0), (0, 1), (−1, 0): P(m ∈ M_n) = 3/8, {share_up}, 3/8, not 1/3",
                 {"cone_of_0_1": cone, "cone_verified": cone_ok, "shares": shares}),
         _r("exchangeable-signals", "signals i.i.d. from a rotation-invariant law", True,
            "relabelling the tasks leaves the law of (θ, v_1, …, v_N) unchanged, so the "
            "argmax is uniform on [N] after averaging over the signals; the experts' events "
            "then share the signals and are not independent, as L506 needs",
            origin="package")],
        "1. $M_n$ is the set of experts whose gate scores $v_n$ highest (L125). If $v_3$ is "
        "the midpoint of $v_1,v_2$, then $\\theta^\\top v_3=\\tfrac12(\\theta^\\top v_1+"
        "\\theta^\\top v_2)\\le\\max$, with equality only on a null set: $M_3=\\emptyset$.\n"
        "2. Even for signals of equal norm the probability is the angle of the normal cone "
        "over $2\\pi$: $3/8,1/4,3/8$ for $(1,0),(0,1),(-1,0)$.\n3. Only exchangeable random "
        "signals give $1/N$, and then the events of different experts are dependent through "
        "the shared signals.",
    )


# --------------------------------------------------------------------------------------
# Definition 1 and the update (5): invertibility of X_tᵀX_t
# --------------------------------------------------------------------------------------


@exact_claim(
    "cl.setup.gram-invertible", [61, 80, 741], [],
    "Definition 1 (L61: one column β_t v_{n_t}, the other s_t − 1 columns drawn from "
    "N(0, σ_t² I_d) with noise level σ_t ≥ 0) yields X_t with X_tᵀX_t invertible, as the "
    "update (5) (L80) and P_t = X_t(X_tᵀX_t)⁻¹X_tᵀ (L741) need.",
    "Primary: Definition 1 as printed, σ_t ≥ 0 (s ≥ 2). Readings: a zero signal (distinct "
    "signals allow one v_n = 0); σ_t > 0, v_n ≠ 0 and s ≤ d, where X_tᵀX_t is invertible with "
    "probability 1 (its determinant is a polynomial in the Gaussian entries that is not "
    "identically zero).",
)
def check_gram_invertible(ctx: CheckContext) -> Outcome:
    v = sp.Matrix([1, 2, 0])
    X0 = sp.Matrix.hstack(v, sp.zeros(3, 1))  # σ_t = 0: the noise column is 0
    det0 = (X0.T * X0).det()
    g = sp.Matrix(sp.symbols("g1:4", real=True))
    Xz = sp.Matrix.hstack(sp.zeros(3, 1), g)  # v_n = 0
    detz = sp.expand((Xz.T * Xz).det())
    Xg = sp.Matrix.hstack(v, g)
    poly = sp.factor((Xg.T * Xg).det())
    at_point = poly.subs({g[0]: 0, g[1]: 0, g[2]: 1})
    # Appendix A.2's sizes: a point where the determinant of the Gram matrix is non-zero
    d, s = 10, 6
    va = sp.Matrix([1] * d)
    Xa = sp.Matrix.hstack(va, *[sp.eye(d)[:, j] for j in range(1, s)])
    det_a = (Xa.T * Xa).det()
    return _out(
        [_r("sigma_t>=0", "X_tᵀX_t invertible for every σ_t ≥ 0", det0 != 0,
            f"σ_t = 0, s = 2: X_t = [β_t v, 0] has det(X_tᵀX_t) = {det0}; (5) and P_t are "
            "undefined (the pseudo-inverse gives the minimum-norm step instead)",
            X_t=X0, gram_det=det0),
         _r("zero-signal", "v_{n_t} = 0 allowed by 'distinct signals'", detz != 0,
            f"a zero signal column gives det(X_tᵀX_t) = {detz}", gram_det=detz),
         _r("sigma_t>0", "σ_t > 0, v ≠ 0, s ≤ d: invertible with probability 1",
            at_point != 0 and det_a != 0,
            "for X_t = [v, g] with v = (1, 2, 0), det(X_tᵀX_t) is a polynomial in g that is "
            f"not identically zero (value {at_point} at g = e3), so its zero set is "
            f"Lebesgue-null; at d = 10, s = 6 the Gram determinant is {det_a} at one point",
            gram_det_polynomial=poly,
            origin="package")],
        "1. Definition 1 allows $\\sigma_t=0$ (L61): the $s-1$ noise columns vanish and "
        "$X_t^\\top X_t$ has rank 1, so $(X_t^\\top X_t)^{-1}$ in (5) and in $P_t$ does not "
        "exist.\n2. A zero signal does the same.\n3. With $\\sigma_t>0$, $v\\ne0$ and "
        "$s\\le d$ the determinant is a polynomial in the noise entries, non-zero at one point, "
        "hence non-zero almost surely.",
    )
