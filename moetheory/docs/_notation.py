r"""The setting and notation each section page opens with, in the papers' symbols.

A reader who lands on a section page should meet the symbols its claims use before the
claims themselves (``S``, ``D``, ``r``, ``L_t`` were defined only inside evidence tables).
Each entry is MyST written in LaTeX; the papers' numbered equations the page's claims name
follow it, displayed with the papers' numbers (:mod:`._equations`).
"""

from __future__ import annotations

__all__ = ["NOTATION"]

_J91 = (
    r"A mixture of experts with outputs $o_i$ (on a training case $c$, $o_i^c$) and a gating "
    r"network giving mixing proportions $p_i \ge 0$, $\sum_i p_i = 1$ (a softmax of its "
    r"outputs); $d$ is the desired output vector and $E$ (or $E^c$) the error on a case. "
)

_PCR = (
    r"The regression $Y_i = f_{G_*}(X_i) + \varepsilon_i$ with "
    r"$f_G(x) = \sum_{i=1}^{k} \mathrm{Softmax}(s(x, \beta_{1i}) + \beta_{0i})\, h(x, \eta_i)$, "
    r"a mixing measure $G = \sum_i \exp(\beta_{0i})\, \delta_{(\beta_{1i}, \eta_i)}$ with "
    r"$k$ atoms ($G_*$ the true one, $k_*$ atoms), input dimension $d_1$ and expert "
    r"$h(x, \eta)$. The cosine router scores $s = \beta_1^\top x / (\lVert\beta_1\rVert\,"
    r"\lVert x\rVert)$, the perturbed one $\tilde s = \beta_1^\top x / ((\lVert\beta_1\rVert "
    r"+ \tau_1)(\lVert x\rVert + \tau_2))$ with $\tau_1, \tau_2 > 0$; "
    r"$H(x, \beta_1, \eta) = \exp(s)\, h(x, \eta)$ and $\tilde H$ the same with $\tilde s$. "
)

_CL = (
    r"$N$ tasks with ground truths $w_n \in \mathbb{R}^d$; in round $t \in [T]$ task $n_t$ "
    r"arrives with data $D_t = (X_t, y_t)$, $s$ samples ($s < d$), $y_t = X_t^\top w_{n_t}$ "
    r"(Definition 1: one sample is the task's signal $\beta_t v_{n_t}$, the others are "
    r"Gaussian noise of level $\sigma_t$). $M$ experts with models $w_t^{(m)}$; the gating "
    r"network $\Theta_t = (\theta_t^{(1)}, \dots, \theta_t^{(M)})$ routes the task to expert "
    r"$m_t$ through the softmax $\pi_m(X_t, \Theta_t)$ of the gate outputs $h_m(X_t, "
    r"\theta_t^{(m)})$, and the chosen expert takes the minimum-norm update (5). "
)

_CL_TRAINING = (
    _CL
    + r"$f_t^{(m)}$ is the fraction of the first $t$ tasks routed to expert $m$, "
    r"$\mathcal{M}_n$ the set of experts that task $n$ is routed to, "
    r"$T_1 = \lceil \eta^{-1} M \rceil$ the exploration rounds, $\sigma_0$ the initial "
    r"noise scale and $\Gamma$ the termination threshold of Algorithm 1."
)

_CL_FORGETTING = (
    _CL
    + r"With $E_\tau(w) = \lVert w - w_{n_\tau}\rVert^2$, the forgetting is "
    r"$F_t = \frac{1}{t-1} \sum_{\tau=1}^{t-1} \bigl(E_\tau(w_t^{(m_\tau)}) - "
    r"E_\tau(w_\tau^{(m_\tau)})\bigr)$ and the generalization error "
    r"$G_T = \frac{1}{T} \sum_{\tau=1}^{T} E_\tau(w_T^{(m_\tau)})$. Throughout, "
    r"$r = 1 - s/d$, $S = \sum_n \lVert w_n\rVert^2$, "
    r"$D = \sum_{n \ne n'} \lVert w_{n'} - w_n\rVert^2$ (over ordered pairs unless a reading "
    r"says otherwise) and $L_t^{(m)} = t f_t^{(m)}$, the number of tasks routed to expert "
    r"$m$ up to round $t$."
)

_CL_PROOFS = (
    _CL
    + r"The proofs follow the exploration ($t \le T_1$) and the frozen gate ($t > T_1$), "
    r"with $f_t^{(m)}$ the routing fractions, $\mathcal{M}_n$ the expert sets and "
    r"$P_t$ the projection onto the column space of $X_t$."
)

#: ``(paper key, section key)`` -> the page's preface (MyST).
NOTATION: dict[tuple[str, str], str] = {
    ("jacobs1991adaptive", "error-functions"): _J91
    + r"Eqs. 1.1–1.5 below are as the review writes them. The corrected forms use the "
    r"posterior responsibility $h_i = p_i e^{-\frac{1}{2}\lVert d - o_i\rVert^2} / "
    r"\sum_j p_j e^{-\frac{1}{2}\lVert d - o_j\rVert^2}$ of expert $i$.",
    ("jacobs1991adaptive", "vowels"): _J91
    + r"The vowel data (formants $F_1, F_2$ of four vowels spoken by 75 speakers, the first "
    r"50 for training) is not available; the checks use a documented stand-in "
    r"(`moetheory.jacobs.training.vowel_standin`). Mixtures of $k$ linear experts with "
    r"sigmoid outputs are compared with backpropagation networks with $H$ hidden units; a "
    r"run's epochs are those to a training accuracy of $0.9$.",
    ("jacobs1991adaptive", "efficiency"): _J91
    + r"The review's remarks on cost: how many weights an update changes and how the "
    r"operations of a forward pass grow with the number of experts $n$.",
    ("nguyen2025cosine", "routers-pde"): _PCR
    + r"The parameter interaction is the PDE (4), "
    r"$\beta_1^\top \partial H/\partial \beta_1 = 0$; a linear router scores "
    r"$s = \beta_1^\top x$.",
    ("nguyen2025cosine", "identifiability"): _PCR
    + r"An expert $h(x, \eta)$ is strongly identifiable (Definition 1) when, for pairwise "
    r"distinct atoms $\eta_1, \dots, \eta_k$, the functions "
    r"$u(x)^{\nu}\, \partial_\eta^{\gamma} h(x, \eta_j)$ with $u(x) = x/(\lVert x\rVert + "
    r"\tau_2)$ and $0 \le \lvert\nu\rvert + \lvert\gamma\rvert \le 2$ are linearly "
    r"independent for almost every $x$. The one-layer experts are "
    r"$h(x, (a, b)) = \phi(a^\top x + b)$; a reading fixes the family of functions (the "
    r"order of the Taylor expansion, with or without the order-0 term), $d$ and $k$.",
    ("nguyen2025cosine", "identifiability-two-layer"): _PCR
    + r"Strong identifiability as in Definition 1 (see the one-layer page), for the "
    r"two-layer experts $h(x) = \mathrm{ReLU}(x W_1 + b_1) W_2 + b_2$ of the rebuttal and "
    r"their variants (without $b_2$, other activations, hidden width $1$ or $2$).",
    ("nguyen2025cosine", "voronoi-losses"): _PCR
    + r"The Voronoi cells $\mathcal{A}_j$ of (5) assign the atoms of $G$ to the nearest true "
    r"atom; the Voronoi loss $\mathcal{L}_{1,r}(G, G_*)$ adds the mass and parameter "
    r"discrepancies cell by cell. Assumption (A.3) sets $\beta^*_{0k_*} = 0$.",
    ("nguyen2025cosine", "rates"): _PCR
    + r"$\widehat G_n$ is the least-squares estimator (3) from $n$ samples, exact-specified "
    r"($k = k_*$) or over-specified ($k > k_*$). A rate is read off the slope of a Voronoi "
    r"loss against $n$ on log-log axes, with a bootstrap interval; a polynomial rate "
    r"$n^{-1/2}$ has slope $-1/2$.",
    ("nguyen2025cosine", "rates-sparse"): _PCR
    + r"$\widehat G_n$ is the least-squares estimator (3) from $n$ samples under the Top-K "
    r"sparse softmax gate (only the $K$ largest scores are kept). A rate is read off the "
    r"slope of a loss against $n$ on log-log axes; $\sqrt{\log n / n}$ has local slope "
    r"below $-0.39$ for $n \ge 100$.",
    ("nguyen2025cosine", "rebuttal"): _PCR
    + r"The rebuttal's experts are two linear layers of shapes $d \times h$ and $h \times d$ "
    r"(input dimension $d$, hidden width $h$).",
    ("li2025continual", "setup"): _CL
    + r"The gate is trained on the losses (3), (6), (7) by gradient steps (9) with learning "
    r"rate $\eta$, and its updates stop after the exploration rounds $T_1$.",
    ("li2025continual", "training"): _CL_TRAINING,
    ("li2025continual", "termination"): _CL_TRAINING,
    ("li2025continual", "forgetting"): _CL_FORGETTING,
    ("li2025continual", "fewer-experts"): _CL_FORGETTING,
    ("li2025continual", "experiments"): _CL
    + r"The figures plot the forgetting $F_t$ and the generalization error $G_t$ against the "
    r"round $t$ for several numbers of experts $M$, with and without terminating the gate's "
    r"updates, and the routing of tasks to experts for thresholds $\Gamma$.",
    ("li2025continual", "lemmas"): _CL
    + r"The lemmas bound the gate outputs $h_m$, the softmax $\pi_m$ and the gradients of the "
    r"local loss $L^{\mathrm{loc}}$ and the auxiliary loss $L^{\mathrm{aux}}$ (weight "
    r"$\alpha$) in the orders of $\sigma_0$, $\eta$ and $M$.",
    ("li2025continual", "proofs"): _CL_PROOFS,
    ("li2025continual", "proofs-late"): _CL_PROOFS,
}
