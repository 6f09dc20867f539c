r"""Typeset statements of the catalogued claims (``statement_latex``), by claim ID.

Each value says what the catalogue row's plain statement says, as Markdown prose with every
formula inside ``$...$`` (prose never inside the dollars). The docs and the Markdown report
show it in place of the plain statement; terminals show the plain one.
"""

STATEMENT_LATEX: dict[str, str] = {
    "pcr.pde.cosine": (
        r"For the cosine router $s = \beta_1^\top x / (\lVert\beta_1\rVert\,\lVert x\rVert)$, "
        r"$\beta_1^\top \partial H/\partial\beta_1 = 0$ (eq. 4) for every expert function $h$, "
        r"every $d_1 \ge 1$ and all $x \ne 0$, $\beta_1 \ne 0$. Must be shown for general $d_1$, "
        r"not only for a few fixed dimensions."
    ),
    "pcr.pde.perturbed": (
        r"For the perturbed cosine router "
        r"$s = \beta_1^\top x / ((\lVert\beta_1\rVert + \tau_1)(\lVert x\rVert + \tau_2))$ with "
        r"$\tau_1, \tau_2 > 0$, $\beta_1^\top \partial \tilde H/\partial\beta_1 \ne 0$, i.e. the "
        r"interaction (4) does not occur. Give the residual in closed form and the set where it "
        r"vanishes."
    ),
    "pcr.pde.each-noise": (
        r"Each of the two perturbations on its own ($\tau_1 > 0$ with $\tau_2 = 0$, and "
        r"$\tau_2 > 0$ with $\tau_1 = 0$) eliminates the interaction (4)."
    ),
    "pcr.pde.linear-second-order": (
        r"For the linear router $s = \beta_1^\top x$ and experts $h = \varphi(a^\top x + b)$, the "
        r"parameter interaction appears only at second order: "
        r"$\partial^2 H/\partial\beta_1\partial b = \partial H/\partial a$, while "
        r"$\beta_1^\top \partial H/\partial\beta_1 \not\equiv 0$."
    ),
    "pcr.pde.implementations": (
        r"Router code in practice normalises with a clamp, $v / \max(\lVert v\rVert, \varepsilon)$ "
        r"(PyTorch's `F.normalize`), or with an additive $\varepsilon$, "
        r"$v / (\lVert v\rVert + \varepsilon)$, on the expert embedding only, the token only, or "
        r"both. For each of these six variants, does (4) hold, and where?"
    ),
    "pcr.experts.param-count": (
        r"The two-layer expert ($d \times h$, then $h \times d$, with input dimension $d$ and "
        r"hidden dimension $h$) has fewer parameters than one $d \times d$ linear layer whenever "
        r"$h < d$."
    ),
    "pcr.stability.near-zero": (
        r"The cosine router's training can suffer when $\lVert\beta_1\rVert$ or $\lVert x\rVert$ "
        r"approaches $0$; the perturbed router does not. Quantify: gradients of $s$ with respect "
        r"to $x$ and $\beta_1$ near $0$, unbounded or bounded, with the bound."
    ),
    "pcr.ident.ffn-relu": (
        r"$h(x, (a, b)) = \mathrm{ReLU}(a^\top x + b)$ is strongly identifiable."
    ),
    "pcr.ident.ffn-tanh": r"$h(x, (a, b)) = \tanh(a^\top x + b)$ is strongly identifiable.",
    "pcr.ident.ffn-poly": (
        r"$h(x, (a, b)) = (a^\top x + b)^p$, $p \ge 2$, is strongly identifiable."
    ),
    "pcr.ident.linear": (
        r"The linear expert $h(x, (a, b)) = a^\top x + b$ is not strongly identifiable."
    ),
    "pcr.ident.two-layer-relu-bias": (
        r"The two-layer ReLU FFN with a last-layer bias, "
        r"$\mathrm{ReLU}(x W_1 + b_1) W_2 + b_2$, is not strongly identifiable."
    ),
    "pcr.ident.two-layer-relu-nobias": (
        r"$\mathrm{ReLU}(x W_1 + b_1) W_2$ (no last bias) is strongly identifiable."
    ),
    "pcr.identifiable.cosine": (
        r"(A.3): with $\beta^*_{0k^*} = 0$ the cosine-router MoE is identifiable: "
        r"$f_G(x) = f_{G^*}(x)$ for almost every $x$ implies $G \equiv G^*$ (as mixing "
        r"measures, up to relabelling)."
    ),
    "pcr.voronoi.loss": (
        r"The Voronoi cells (5) and the loss $\mathcal{L}_{1,r}(G, G^*)$ are well defined; "
        r"$\mathcal{L} \ge 0$ and $\mathcal{L} = 0$ iff $G = G^*$ (as mixing measures, with the "
        r"identifiability convention (A.3))."
    ),
    "pcr.sparse.partition": (
        r"The top-$K$ perturbed cosine MoE equals, on each of the $\binom{k^*}{K}$ regions of "
        r"the input space, the dense softmax MoE over the $K$ selected experts, and the squared "
        r"$L^2(\mu)$ distance decomposes as a sum over the regions."
    ),
    "pcr.poly-expert.identity": (
        r"For $h(x, \eta) = (\eta x)^2$, $x \in \mathbb{R}$: "
        r"$\lvert h(x, \hat\eta) - h(x, \eta^*)\rvert = \lvert\hat\eta - \eta^*\rvert \cdot "
        r"\lvert\hat\eta + \eta^*\rvert \cdot \lvert x\rvert$."
    ),
    "pcr.rates.regression": (
        r"Theorems 1 and 3: $\lVert f_{\hat G_n} - f_{G^*}\rVert_{L^2(\mu)} = "
        r"O_P\bigl(\sqrt{\log n / n}\bigr)$ for the least-squares estimator, with either router."
    ),
    "pcr.rates.cosine-slow": (
        r"Theorem 2 and contribution 1 (002 L56): under the cosine router, in both the exact- "
        r"and the over-specified setting, the rates for estimating $\beta_0^*$, $\beta_1^*$ and "
        r"$\eta^*$ are slower than every polynomial rate (could be "
        r"$O_P(1/\log^\tau n)$), and so could the rates for the experts $h(\cdot, \eta^*)$."
    ),
    "pcr.rates.perturbed-fast": (
        r"Theorem 4 / Table 1: under the perturbed router with strongly identifiable experts "
        r"(the seeds name feed-forward experts with ReLU, GELU, tanh activations and polynomial "
        r"experts), parameter and expert estimation rates are polynomial, between "
        r"$O_P((\log n/n)^{1/4})$ and $O_P((\log n/n)^{1/2})$; the worst rate is "
        r"$O_P(n^{-1/4})$."
    ),
    "j91.grad.1.4": (
        r"The derivative of $E = \sum_i p_i \lVert d - o_i\rVert^2$ (eq. 1.2) is "
        r"$\partial E/\partial o_i = -2 p_i (d - o_i)$."
    ),
    "j91.loss.1.3": (
        r"$E = -\log \sum_i p_i \exp\bigl(\tfrac12 \lVert d - o_i\rVert^2\bigr)$, as written in "
        r"the seed, is the negative log probability of $d$ under a mixture of unit-variance "
        r"Gaussians centred at the $o_i$."
    ),
    "cl.update.min-norm": (
        r"Eq. (5) is the unique minimiser of $\lVert w - w_{t-1}\rVert$ subject to "
        r"$X_t^\top w = y_t$."
    ),
    "cl.update.projection-mean": (
        r"[Lemma 16's key step] $\mathbb{E}\lVert P_t u\rVert^2 = (s/d)\lVert u\rVert^2$ for the "
        r"projection $P_t$ onto the column space of $X_t$. Check it both for Gaussian $X_t$ and "
        r"for $X_t$ of Definition 1."
    ),
    "cl.lemma2.smooth-router": (
        r"$\lVert p - \hat p\rVert_\infty \le (\lambda/M^2)\lVert h - \hat h\rVert_\infty$ "
        r"(Appendix B; note that the proof's last lines write $\lambda M^2$ and $M^2$ instead — "
        r"check each reading)."
    ),
    "cl.lemma3.unchanged": (
        r"If the task routed to expert $m_t$ has the same ground truth as the previous task "
        r"routed to $m_t$, then $w_t^{(m_t)} = w_{t-1}^{(m_t)}$."
    ),
    "cl.lemma4.grad-sum": (
        r"$\sum_m \nabla_{\theta^{(m)}} \mathcal{L}^{\mathrm{task}} = 0$ at every round."
    ),
    "cl.lemma11.coverage": (
        r"If each expert falls in $\mathcal{M}_n$ with probability $1/N$ independently, "
        r"$P(\lvert\mathcal{M}_n\rvert \ge 1 \text{ for all } n) \ge 1 - N e^{-M/N}$."
    ),
    "cl.lemma11.product-step": (
        r"The step of Lemma 11's proof: "
        r"$P(\lvert\mathcal{M}_n\rvert \ge 1 \text{ for all } n) \ge (1 - (1 - 1/N)^M)^N$."
    ),
    "cl.prop4.generalization": (
        r"Single expert ($M = 1$): $\mathbb{E}[G_T] = \frac{r^T}{N} \sum_n \lVert w_n\rVert^2 + "
        r"\frac{1 - r^T}{N^2} \sum_{n \ne n'} \lVert w_{n'} - w_n\rVert^2$, $r = 1 - s/d$. (The "
        r"seed writes the sum as $\sum_{n = n'}$; read it as ordered and as unordered pairs.)"
    ),
    "cl.prop4.forgetting": (
        r"Single expert: $\mathbb{E}[F_t] = \frac{1}{t-1} \sum_{\tau=1}^{t-1} \Bigl( "
        r"\frac{r^{t-\tau}}{N} \sum_n \lVert w_n\rVert^2 + \frac{r^\tau - r^t}{N^2} "
        r"\sum_{n \ne n'} \lVert w_{n'} - w_n\rVert^2 \Bigr)$ (main text), and the Appendix H "
        r"form $\frac{1}{t-1} \sum_i \bigl[ (r^t - r^i)\, \mathbb{E}\lVert w_{n_i}\rVert^2 + "
        r"\sum_{l \le t} (1 - r) r^{t-l}\, \mathbb{E}\lVert w_{n_l} - w_{n_i}\rVert^2 - "
        r"\sum_{j \le i} (1 - r) r^{i-j}\, \mathbb{E}\lVert w_{n_j} - w_{n_i}\rVert^2 \bigr]$."
    ),
    "cl.thm1.forgetting-bound": (
        r"Theorem 1 ($M > N$, $M = \Omega(N \ln N)$), eq. (19): for every "
        r"$t \in \{2, \dots, T_1\}$, $\mathbb{E}[F_t] < \frac{1}{t-1} \sum_{\tau=1}^{t-1} \Bigl[ "
        r"\frac{r^{L_t^{(m_\tau)}} - r^{L_\tau^{(m_\tau)}}}{N} \sum_n \lVert w_n\rVert^2 + "
        r"\frac{r^{L_\tau^{(m_\tau)}} - r^{L_t^{(m_\tau)}}}{N^2} \sum_{n \ne n'} "
        r"\lVert w_{n'} - w_n\rVert^2 \Bigr]$, with $L_t^{(m)} = t f_t^{(m)}$ the number of "
        r"tasks routed to expert $m$ up to round $t$ and $r = 1 - s/d$."
    ),
    "cl.thm1.generalization-bound": (
        r"Theorem 1 ($M > N$, $M = \Omega(N \ln N)$), eq. (20): after round $T$, "
        r"$\mathbb{E}[G_T] < \frac{1}{T} \sum_{\tau=1}^{T} \Bigl[ "
        r"\frac{r^{L_{T_1}^{(m_\tau)}}}{N} \sum_n \lVert w_n\rVert^2 + "
        r"\frac{1 - r^{L_{T_1}^{(m_\tau)}}}{N^2} \sum_{n \ne n'} \lVert w_{n'} - w_n\rVert^2 "
        r"\Bigr]$, $L_t^{(m)} = t f_t^{(m)}$, $r = 1 - s/d$."
    ),
    "cl.thm1.frozen-forgetting": (
        r"For $t > T_1$: $\mathbb{E}[F_t] = \frac{T_1 - 1}{t - 1}\, \mathbb{E}[F_{T_1}]$."
    ),
    "cl.thm2.bounds": (
        r"Theorem 2 ($M < N$, $M = \Omega(K \ln K)$, $K$ clusters $\mathcal{W}_k$): for "
        r"$t \le T_1$, $\mathbb{E}[F_t]$ obeys (19); for some $t > T_1$, eq. (21) bounds "
        r"$\mathbb{E}[F_t]$ by $\frac{1}{t-1} \sum_{\tau<t} "
        r"\frac{r^{L_t^{(m_\tau)}} - r^{L_\tau^{(m_\tau)}}}{N} \sum_n \lVert w_n\rVert^2 + "
        r"\frac{1}{t-1} \sum_{\tau \le T_1} "
        r"\frac{r^{L_\tau^{(m_\tau)}} - r^{L_{T_1}^{(m_\tau)}}}{N^2} \sum_{n \ne n'} "
        r"\lVert w_{n'} - w_n\rVert^2 + \frac{\Psi_1}{t-1} \sum_{\tau=T_1+1}^{t} "
        r"\bigl(1 - r^{L_t^{(m_\tau)} - L_\tau^{(m_\tau)}}\bigr) "
        r"r^{L_t^{(m_\tau)} - L_{T_1}^{(m_\tau)} - 1}$, and eq. (22) bounds "
        r"$\mathbb{E}[G_T]$ by $\frac{1}{T} \sum_\tau r^{L_T^{(m_\tau)}} \Bigl( "
        r"\frac{1}{N} \sum_n \lVert w_n\rVert^2 + \frac{1}{T_1} \sum_{\tau \le T_1} "
        r"r^{L_T^{(m_\tau)} - L_{T_1}^{(m_\tau)}} \bigl(1 - r^{L_{T_1}^{(m_\tau)}}\bigr) "
        r"\frac{1}{N^2} \sum_{n \ne n'} \lVert w_{n'} - w_n\rVert^2 \Bigr) + "
        r"(\Psi_2 + \Psi_1) \frac{1}{T} \sum_{\tau=T_1+1}^{T} "
        r"\bigl(1 - r^{L_T^{(m_\tau)} - L_{T_1}^{(m_\tau)}}\bigr)$, with $\Psi_1$ the mean gap "
        r"within a cluster and $\Psi_2$ the mean gap between a random task and a cluster."
    ),
    "cl.prop1.convergence": (
        r"After $T_1 = \lceil M/\eta\rceil$ rounds every expert stays in one expert set "
        r"$\mathcal{M}_n$ and its model no longer changes: "
        r"$w_{T_1+1}^{(m)} = \dots = w_T^{(m)}$."
    ),
    "cl.prop2.no-termination": (
        r"Without termination, by $t_2 = \lceil \eta^{-1} \sigma_0^{-0.75} M\rceil$ the gate "
        r"outputs of all experts are within $O(\sigma_0^{1.75})$ of each other and routing goes "
        r"wrong."
    ),
    "cl.prop3.balance": (
        r"After termination, the router picks each expert of $\mathcal{M}_{n_t}$ with "
        r"probability $1/\lvert\mathcal{M}_{n_t}\rvert$."
    ),
    "cl.fig2": (
        r"Figure 2: with termination, forgetting and generalization error of every MoE first "
        r"rise, then converge to nearly $0$; without termination they stay high and oscillate; "
        r"every MoE beats the single expert; $M = 20$ converges later than $M = 10$ and ends no "
        r"better."
    ),
    "cl.fig4-5": (
        r"Figures 4–5: $\Gamma \le \lambda$ balances the load across experts of a set; "
        r"$\Gamma > \lambda$ does not; balanced load gives a smaller generalization error; "
        r"forgetting is robust to $\Gamma$."
    ),
    "cl.more-experts": (
        r"Adding experts beyond what the tasks need delays convergence ($T_1$ grows with $M$) "
        r"and does not improve the final error."
    ),
}
