"""The claim catalogue, transcribed from ``claims.md`` (IDs never change).

Each row is ``(claim_id, section, seed_files, statement)``, optionally followed by a dict with
``sources`` (``{seed_file: [1-based lines]}``), ``covers`` (audit-row keys) and ``origin``; the
first seed file is the primary source of the claim.
"""

from typing import Any

CATALOGUE_ROWS: tuple[tuple[Any, ...], ...] = (
    (
        'pcr.pde.cosine',
        'Routers and the parameter-interaction PDE',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'For the cosine router s = β1ᵀx / (‖β1‖·‖x‖), β1ᵀ ∂H/∂β1 = 0 (eq. 4) for every expert '
            'function h, every d1 ≥ 1 and all x ≠ 0, β1 ≠ 0. Must be shown for general d1, not '
            'only for a few fixed dimensions.'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [44, 46, 48, 50, 52],
                '000_7b6465990ad3b04b.txt': [173, 175],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.pde.perturbed',
        'Routers and the parameter-interaction PDE',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'For the perturbed cosine router s = β1ᵀx / ((‖β1‖+τ1)(‖x‖+τ2)) with τ1, τ2 > 0, β1ᵀ '
            '∂H̃/∂β1 ≠ 0, i.e. the interaction (4) does not occur. Give the residual in closed '
            'form and the set where it vanishes.'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [58, 110],
                '000_7b6465990ad3b04b.txt': [173, 175],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.pde.each-noise',
        'Routers and the parameter-interaction PDE',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'Each of the two perturbations on its own (τ1 > 0 with τ2 = 0, and τ2 > 0 with τ1 = '
            '0) eliminates the interaction (4).'
        ),
        {'sources': {'002_ed39350ac6d6e1c0.txt': [58, 110]}, 'covers': [], 'origin': 'package'},
    ),
    (
        'pcr.pde.linear-second-order',
        'Routers and the parameter-interaction PDE',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'For the linear router s = β1ᵀx and experts h = φ(aᵀx + b), the parameter interaction '
            'appears only at second order: ∂²H/∂β1∂b = ∂H/∂a, while β1ᵀ∂H/∂β1 ≢ 0.'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [8, 52],
                '000_7b6465990ad3b04b.txt': [175],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.pde.implementations',
        'Routers and the parameter-interaction PDE',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            "Router code in practice normalises with a clamp, v / max(‖v‖, ε) (PyTorch's "
            '`F.normalize`), or with an additive ε, v / (‖v‖ + ε), on the expert embedding only, '
            'the token only, or both. For each of these six variants, does (4) hold, and where?'
        ),
        {'sources': {'002_ed39350ac6d6e1c0.txt': [96, 110]}, 'covers': [], 'origin': 'package'},
    ),
    (
        'pcr.experts.param-count',
        'Routers and the parameter-interaction PDE',
        ('000_7b6465990ad3b04b.txt',),
        (
            'The two-layer expert (input-dim × hidden, then hidden × input-dim) has fewer '
            'parameters than one input-dim × input-dim linear layer whenever the hidden dimension '
            'is smaller than the input dimension.'
        ),
        {
            'sources': {
                '000_7b6465990ad3b04b.txt': [7],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.stability.near-zero',
        'Routers and the parameter-interaction PDE',
        ('000_7b6465990ad3b04b.txt',),
        (
            "The cosine router's training can suffer when ‖β1‖ or ‖x‖ approaches 0; the perturbed "
            'router does not. Quantify: gradients of s with respect to x and β1 near 0, unbounded '
            'or bounded, with the bound.'
        ),
        {
            'sources': {
                '000_7b6465990ad3b04b.txt': [215, 217, 219, 221],
                '002_ed39350ac6d6e1c0.txt': [58],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.ident.ffn-relu',
        'Strong identifiability of experts',
        ('002_ed39350ac6d6e1c0.txt',),
        (
            'h(x,(a,b)) = ReLU(aᵀx+b) is strongly identifiable.'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [116],
                '000_7b6465990ad3b04b.txt': [23, 157],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.ident.ffn-tanh',
        'Strong identifiability of experts',
        ('002_ed39350ac6d6e1c0.txt',),
        (
            'h(x,(a,b)) = tanh(aᵀx+b) is strongly identifiable.'
        ),
        {'sources': {'002_ed39350ac6d6e1c0.txt': [116]}, 'covers': [], 'origin': 'seed'},
    ),
    (
        'pcr.ident.ffn-poly',
        'Strong identifiability of experts',
        ('002_ed39350ac6d6e1c0.txt',),
        (
            'h(x,(a,b)) = (aᵀx+b)^p, p ≥ 2, is strongly identifiable.'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [116],
                '000_7b6465990ad3b04b.txt': [157],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.ident.linear',
        'Strong identifiability of experts',
        ('002_ed39350ac6d6e1c0.txt',),
        (
            'the linear expert h(x,(a,b)) = aᵀx+b is not strongly identifiable.'
        ),
        {'sources': {'002_ed39350ac6d6e1c0.txt': [116]}, 'covers': [], 'origin': 'seed'},
    ),
    (
        'pcr.ident.two-layer-relu-bias',
        'Strong identifiability of experts',
        ('000_7b6465990ad3b04b.txt',),
        (
            'the two-layer ReLU FFN with a last-layer bias, ReLU(xW1+b1)W2 + b2, is not strongly '
            'identifiable.'
        ),
        {'sources': {'000_7b6465990ad3b04b.txt': [165, 211]}, 'covers': [], 'origin': 'seed'},
    ),
    (
        'pcr.ident.two-layer-relu-nobias',
        'Strong identifiability of experts',
        ('000_7b6465990ad3b04b.txt',),
        (
            'ReLU(xW1+b1)W2 (no last bias) is strongly identifiable.'
        ),
        {'sources': {'000_7b6465990ad3b04b.txt': [171]}, 'covers': [], 'origin': 'seed'},
    ),
    (
        'pcr.ident.two-layer-gelu',
        'Strong identifiability of experts',
        ('000_7b6465990ad3b04b.txt',),
        (
            'the two-layer GELU FFN is strongly identifiable.'
        ),
        {'sources': {'000_7b6465990ad3b04b.txt': [165]}, 'covers': [], 'origin': 'seed'},
    ),
    (
        'pcr.ident.consistency',
        'Strong identifiability of experts',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'do the two seeds agree with each other about ReLU experts?'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [116],
                '000_7b6465990ad3b04b.txt': [157, 165, 171, 211],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.identifiable.cosine',
        'Estimation',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            '(A.3): with β*_{0k*} = 0 the cosine-router MoE is identifiable: f_G(x) = f_{G*}(x) '
            'for almost every x implies G ≡ G* (as mixing measures, up to relabelling).'
        ),
        {'sources': {'002_ed39350ac6d6e1c0.txt': [40]}, 'covers': [], 'origin': 'seed'},
    ),
    (
        'pcr.identifiable.perturbed',
        'Estimation',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'the same statement for the perturbed cosine router, under the same assumptions.'
        ),
        {'sources': {'002_ed39350ac6d6e1c0.txt': [40, 58]}, 'covers': [], 'origin': 'package'},
    ),
    (
        'pcr.voronoi.loss',
        'Estimation',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'The Voronoi cells (5) and loss L_{1,r}(G, G*) are well defined; L ≥ 0 and L = 0 iff '
            'G = G* (as mixing measures, with the identifiability convention (A.3)).'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [68, 70, 72, 74, 76, 78, 80],
            },
            'covers': [],
            'origin': 'package',
        },
    ),
    (
        'pcr.sparse.partition',
        'Estimation',
        ('000_7b6465990ad3b04b.txt',),
        (
            'The top-K perturbed cosine MoE equals, on each of the C(k*, K) regions of the input '
            'space, the dense softmax MoE over the K selected experts, and the squared L²(μ) '
            'distance decomposes as a sum over the regions.'
        ),
        {
            'sources': {
                '000_7b6465990ad3b04b.txt': [59, 61, 63, 65, 67, 69, 71, 73],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.poly-expert.identity',
        'Estimation',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'For h(x, η) = (ηx)², x ∈ ℝ: |h(x, η̂) − h(x, η*)| = |η̂ − η*| · |η̂ + η*| · |x|.'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [94],
                '000_7b6465990ad3b04b.txt': [105],
            },
            'covers': ['000-21'],
            'origin': 'seed',
        },
    ),
    (
        'pcr.rates.regression',
        'Estimation',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'Theorems 1 and 3: ‖f_Ĝn − f_G*‖_{L²(μ)} = O_P(√(log n / n)) for the least-squares '
            'estimator, with either router.'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [66, 112],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'pcr.rates.cosine-slow',
        'Estimation',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'Theorem 2 and contribution 1 (002 L56): under the cosine router, in both the exact- '
            'and the over-specified setting, the rates for estimating beta0*, beta1* and eta* are'
            ' slower than every polynomial rate (could be O_P(1/log^tau n)), and so could the '
            'rates for the experts h(., eta*).'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [56, 84],
                '000_7b6465990ad3b04b.txt': [21],
            },
            'covers': ['002-10', '002-11'],
            'origin': 'seed',
        },
    ),
    (
        'pcr.rates.perturbed-fast',
        'Estimation',
        ('002_ed39350ac6d6e1c0.txt', '000_7b6465990ad3b04b.txt'),
        (
            'Theorem 4 / Table 1: under the perturbed router with strongly identifiable experts '
            '(the seeds name feed-forward experts with ReLU, GELU, tanh activations and '
            'polynomial experts), parameter and expert estimation rates are polynomial, between '
            'O_P((log n/n)^{1/4}) and O_P((log n/n)^{1/2}); the worst rate is O_P(n^{-1/4}).'
        ),
        {
            'sources': {
                '002_ed39350ac6d6e1c0.txt': [58, 116],
                '000_7b6465990ad3b04b.txt': [23, 107, 151, 157, 165],
            },
            'covers': ['000-07', '000-22'],
            'origin': 'seed',
        },
    ),
    (
        'pcr.rates.comparison',
        'Estimation',
        ('000_7b6465990ad3b04b.txt',),
        (
            '[000 L25, L199] the convergence rates of parameter estimation and of expert '
            'estimation with the perturbed cosine router are empirically faster than with the '
            "linear router (L25), and the perturbed router's expert estimation is faster than the"
            " linear and the cosine router's (L199). The misspecified-data comparison of 000 L193"
            ' is the claim pcr.rates.comparison.misspecified.'
        ),
        {
            'sources': {
                '000_7b6465990ad3b04b.txt': [21, 25, 199],
            },
            'covers': ['000-10', '000-47'],
            'origin': 'seed',
        },
    ),
    (
        'j91.grad.1.4',
        'Jacobs, Jordan, Nowlan & Hinton 1991',
        ('001_4a7126a84a0d22c9.txt',),
        (
            'The derivative of E = Σ_i p_i ‖d − o_i‖² (eq. 1.2) is ∂E/∂o_i = −2 p_i (d − o_i).'
        ),
        {
            'sources': {
                '001_4a7126a84a0d22c9.txt': [3],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'j91.loss.1.3',
        'Jacobs, Jordan, Nowlan & Hinton 1991',
        ('001_4a7126a84a0d22c9.txt',),
        (
            'E = −log Σ_i p_i exp(½‖d − o_i‖²), as written in the seed, is the negative log '
            'probability of d under a mixture of unit-variance Gaussians centred at the o_i.'
        ),
        {
            'sources': {
                '001_4a7126a84a0d22c9.txt': [3],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'j91.grad.1.5',
        'Jacobs, Jordan, Nowlan & Hinton 1991',
        ('001_4a7126a84a0d22c9.txt',),
        (
            'Eq. 1.5, as written, is the derivative of eq. 1.3 as written.'
        ),
        {
            'sources': {
                '001_4a7126a84a0d22c9.txt': [3],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'j91.adapt-speed',
        'Jacobs, Jordan, Nowlan & Hinton 1991',
        ('001_4a7126a84a0d22c9.txt',),
        (
            'Eq. 1.4 adapts the best-fitting expert the slowest and eq. 1.5 the fastest.'
        ),
        {
            'sources': {
                '001_4a7126a84a0d22c9.txt': [3],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'j91.cooperation',
        'Jacobs, Jordan, Nowlan & Hinton 1991',
        ('001_4a7126a84a0d22c9.txt',),
        (
            "Under eq. 1.1 the gradient for expert i depends on the other experts' outputs (they "
            'compensate each other); under 1.2 and 1.3 it does not, except through a scalar '
            'weight.'
        ),
        {
            'sources': {
                '001_4a7126a84a0d22c9.txt': [3],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'j91.specialization',
        'Jacobs, Jordan, Nowlan & Hinton 1991',
        ('001_4a7126a84a0d22c9.txt',),
        (
            '(empirical) with 4 or 8 experts trained on loss 1.3, all but 2–3 experts end with '
            'mixing proportions near 0. The vowel data is not available: design a documented 2-D, '
            'multi-class stand-in and say so.'
        ),
        {
            'sources': {
                '001_4a7126a84a0d22c9.txt': [3],
            },
            'covers': [],
            'origin': 'seed',
        },
    ),
    (
        'cl.update.min-norm',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Eq. (5) is the unique minimiser of ‖w − w_{t−1}‖ subject to X_tᵀ w = y_t.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [74, 76, 80]}},
    ),
    (
        'cl.update.projection-mean',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            "[Lemma 16's key step] E‖P_t u‖² = (s/d)‖u‖² for the projection P_t onto the column "
            'space of X_t. Check it both for Gaussian X_t and for X_t of Definition 1.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [749, 751]}},
    ),
    (
        'cl.lemma2.smooth-router',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            "‖p − p̂‖∞ ≤ (λ/M²)‖h − ĥ‖∞ (Appendix B; note that the proof's last lines write λM² "
            'and M² instead — check each reading).'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [270, 280, 282, 286]}},
    ),
    (
        'cl.lemma3.unchanged',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'If the task routed to expert m_t has the same ground truth as the previous task '
            'routed to m_t, then w_t^{(m_t)} = w_{t−1}^{(m_t)}.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [330, 332]}},
    ),
    (
        'cl.lemma4.grad-sum',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Σ_m ∇_{θ(m)} L_task = 0 at every round.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [336, 338, 342, 344, 346, 348, 352, 354, 356]}},
    ),
    (
        'cl.lemma11.coverage',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'If each expert falls in M_n with probability 1/N independently, P(|M_n| ≥ 1 for all '
            'n) ≥ 1 − N·exp(−M/N).'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [437, 504, 506, 510, 514]}},
    ),
    (
        'cl.lemma11.product-step',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            "The step of Lemma 11's proof: P(|M_n| ≥ 1 for all n) ≥ (1 − (1 − 1/N)^M)^N."
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [510]}},
    ),
    (
        'cl.prop4.generalization',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            "Single expert (M = 1): E[G_T] = r^T/N Σ_n ‖w_n‖² + (1 − r^T)/N² Σ_{n≠n'} ‖w_{n'} − "
            'w_n‖², r = 1 − s/d. (The seed writes the sum as "Σ_{n=n\'}"; read it as ordered and '
            'as unordered pairs.)'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [169, 175, 177, 721, 723]}},
    ),
    (
        'cl.prop4.forgetting',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Single expert: E[F_t] = 1/(t−1) Σ_{τ=1}^{t−1} ( r^{t−τ}/N Σ_n ‖w_n‖² + (r^τ − '
            "r^t)/N² Σ_{n≠n'} ‖w_{n'} − w_n‖² ) (main text), and the Appendix H form 1/(t−1) Σ_i "
            '[ (r^t − r^i) E‖w_{n_i}‖² + Σ_{l≤t} (1−r) r^{t−l} E‖w_{n_l} − w_{n_i}‖² − Σ_{j≤i} '
            '(1−r) r^{i−j} E‖w_{n_j} − w_{n_i}‖² ].'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [169, 171, 715, 717, 723]}},
    ),
    (
        'cl.thm1.forgetting-bound',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Theorem 1 (M > N, M = Ω(N ln N)), eq. (19): for every t ∈ {2, …, T1}, E[F_t] < '
            '1/(t−1) Σ_{τ=1}^{t−1} [ (r^{L_t^{(m_τ)}} − r^{L_τ^{(m_τ)}})/N · Σ_n ‖w_n‖² + '
            "(r^{L_τ^{(m_τ)}} − r^{L_t^{(m_τ)}})/N² · Σ_{n≠n'} ‖w_{n'} − w_n‖² ], with "
            'L_t^{(m)} = t·f_t^{(m)} the number of tasks routed to expert m up to round t and '
            'r = 1 − s/d.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [185, 187]}},
    ),
    (
        'cl.thm1.generalization-bound',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Theorem 1 (M > N, M = Ω(N ln N)), eq. (20): after round T, E[G_T] < 1/T Σ_{τ=1}^T '
            '[ r^{L_{T1}^{(m_τ)}}/N · Σ_n ‖w_n‖² + (1 − r^{L_{T1}^{(m_τ)}})/N² · Σ_{n≠n\'} '
            "‖w_{n'} − w_n‖² ], L_t^{(m)} = t·f_t^{(m)}, r = 1 − s/d."
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [189, 191, 779]}},
    ),
    (
        'cl.thm1.frozen-forgetting',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'For t > T1: E[F_t] = (T1 − 1)/(t − 1) · E[F_{T1}].'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [189, 195]}},
    ),
    (
        'cl.thm2.bounds',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Theorem 2 (M < N, M = Ω(K ln K), K clusters W_k): for t ≤ T1, E[F_t] obeys (19); '
            'for some t > T1, eq. (21): E[F_t] < 1/(t−1) Σ_{τ<t} (r^{L_t^{(m_τ)}} − '
            "r^{L_τ^{(m_τ)}})/N Σ_n ‖w_n‖² + 1/(t−1) Σ_{τ≤T1} (r^{L_τ^{(m_τ)}} − "
            "r^{L_{T1}^{(m_τ)}})/N² Σ_{n≠n'} ‖w_{n'} − w_n‖² + Ψ1/(t−1) Σ_{τ=T1+1}^t (1 − "
            'r^{L_t^{(m_τ)} − L_τ^{(m_τ)}}) r^{L_t^{(m_τ)} − L_{T1}^{(m_τ)} − 1}; eq. (22): '
            'E[G_T] < 1/T Σ_τ r^{L_T^{(m_τ)}} ( Σ_n ‖w_n‖²/N + 1/T1 Σ_{τ≤T1} r^{L_T^{(m_τ)} − '
            "L_{T1}^{(m_τ)}} (1 − r^{L_{T1}^{(m_τ)}}) Σ_{n≠n'} ‖w_{n'} − w_n‖²/N² ) + (Ψ2 + Ψ1) "
            '1/T Σ_{τ=T1+1}^T (1 − r^{L_T^{(m_τ)} − L_{T1}^{(m_τ)}}), with Ψ1 the mean gap within '
            'a cluster and Ψ2 the mean gap between a random task and a cluster.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [205, 207, 208, 210, 212, 214]}},
    ),
    (
        'cl.prop1.convergence',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'After T1 = ⌈M/η⌉ rounds every expert stays in one expert set M_n and its model no '
            'longer changes: w_{T1+1}^{(m)} = … = w_T^{(m)}.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [129, 131, 408, 410, 411, 554]}},
    ),
    (
        'cl.prop2.no-termination',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Without termination, by t2 = ⌈η⁻¹σ0^{−0.75}M⌉ the gate outputs of all experts are '
            'within O(σ0^{1.75}) of each other and routing goes wrong.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [135, 137, 139, 141, 143, 145, 564, 566, 568,
                                              570]}},
    ),
    (
        'cl.prop3.balance',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'After termination, the router picks each expert of M_{n_t} with probability '
            '1/|M_{n_t}|.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [147, 149, 686, 688, 689]}},
    ),
    (
        'cl.fig2',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Figure 2: with termination, forgetting and generalization error of every MoE first '
            'rise, then converge to nearly 0; without termination they stay high and oscillate; '
            'every MoE beats the single expert; M = 20 converges later than M = 10 and ends no '
            'better.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [229, 251]}},
    ),
    (
        'cl.fig4-5',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Figures 4–5: Γ ≤ λ balances the load across experts of a set; Γ > λ does not; '
            'balanced load gives a smaller generalization error; forgetting is robust to Γ.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [21, 260, 262, 264]}},
    ),
    (
        'cl.more-experts',
        'Continual learning with MoE',
        ('003_3078ccb5100b14b7.txt',),
        (
            'Adding experts beyond what the tasks need delays convergence (T1 grows with M) and '
            'does not improve the final error.'
        ),
        {'sources': {'003_3078ccb5100b14b7.txt': [19, 197, 221, 229]}},
    ),
)
