"""Statements of the seeds that no claim checks, each with the reason (the coverage ledger).

Each row is ``(key, seed_file, lines, reason)``: ``key`` is the audit-row key of
``shared/audit-rows.md`` (``"003-41"``) or, for a statement found by the package's own read,
``"<seed prefix>-own-<n>"``; ``lines`` are 1-based line numbers of the seed file. ``reason`` is
MyST, shown on the ledger pages: its maths goes in ``$...$``. A statement
that a claim checks is recorded on the claim (``sources`` and ``covers``), never here.
"""

UNCHECKED: tuple[tuple[str, str, tuple[int, ...], str], ...] = (
    # Seed 000 (rebuttal) and 002 (paper): rows are added by the coverage work on those seeds.
    ("000-04", "000_7b6465990ad3b04b.txt", (19, 209),
     "representation collapse under the linear router is a finding of Chi et al. (2022) about "
     "trained token representations; the seeds define no model of it that could be simulated"),
    ("000-08", "000_7b6465990ad3b04b.txt", (23,),
     "cited theorem (Theorem 4.6 of [10]), not stated or proved in the seeds; the first-order "
     "relation $a^\\top \\partial H/\\partial a + b\\,\\partial H/\\partial b = pH$ behind it is "
     "certified in "
     "pcr.consistency.cosine-vs-linear"),
    ("000-09", "000_7b6465990ad3b04b.txt", (25,),
     "Tables 3-5 (domain generalisation benchmarks): data, models and training runs are not "
     "in the seeds and cannot be run here"),
    ("000-34", "000_7b6465990ad3b04b.txt", (165,),
     "Tables 3-5 with GELU experts (domain generalisation benchmarks): not runnable here"),
    ("000-39", "000_7b6465990ad3b04b.txt", (169,),
     "Switch Transformer language-modelling runs (Section 5.2, Appendix E.2): not runnable here"),
    ("000-49", "000_7b6465990ad3b04b.txt", (211, 213),
     "Table 2 (top-1 language modelling, perturbed vs clean cosine): not runnable here"),
    ("000-own-1", "000_7b6465990ad3b04b.txt", (89,),
     "notation of Theorem 2 (an estimator written as an element of $\\mathcal{G}_k(\\Theta)$): "
     "nothing to check"),
    ("000-own-3", "000_7b6465990ad3b04b.txt", (155,),
     "practical advice (add noise to the L2 norms); its basis is checked by pcr.pde.perturbed "
     "and pcr.rates.perturbed-fast"),
    ("000-own-4", "000_7b6465990ad3b04b.txt", (167, 211),
     "strong identifiability is a sufficient condition for fast rates: Theorem 4 is not stated "
     "in the seeds"),
    ("000-own-5", "000_7b6465990ad3b04b.txt", (177,),
     "description of the proof technique (Taylor expansion of H into linearly independent "
     "terms); the linear-independence questions are the pcr.ident.* claims"),
    ("001-own-1", "001_4a7126a84a0d22c9.txt", (3,),
     "history ('the first paper on MoE', 'before this paper ... Equation 1.1'): not "
     "checkable from the seeds"),
    ("001-own-4", "001_4a7126a84a0d22c9.txt", (3,),
     "motivation and opinion ('different parts of the state space that could be hard to learn "
     "together', 'many are interested in MoE today due to lower inference costs'): no "
     "checkable statement; the localised updates are j91.dense-updates, the costs j91.flops"),
    ("001-own-2", "001_4a7126a84a0d22c9.txt", (3,),
     "data split (first 50 speakers train, remaining 25 test): adopted by the stand-in "
     "(moetheory.jacobs.training), nothing to decide"),
    ("001-own-3", "001_4a7126a84a0d22c9.txt", (3,),
     "the reviewer's speculations (fewer layers, vanishing gradients, dataset not interesting "
     "enough or error function causing collapse): no checkable statement; loss 1.1 vs 1.3 "
     "collapse is a reading of j91.specialization"),
    ("002-04", "002_ed39350ac6d6e1c0.txt", (8,),
     "cited results on Gaussian MoE (Ho et al. 2022; Nguyen et al. 2023, 2024a): not in the "
     "seeds"),
    ("002-30", "002_ed39350ac6d6e1c0.txt", (54, 94),
     "Table 1 is not in the seed text; its rows are checked through pcr.rates.cosine-slow, "
     "pcr.rates.perturbed-fast and pcr.consistency.cosine-vs-linear"),
    ("002-own-1", "002_ed39350ac6d6e1c0.txt", (4, 6, 8, 10),
     "literature survey (applications of sparse MoE, cosine routers in practice, earlier "
     "theory): cited, not checkable from the seeds"),
    ("002-own-2", "002_ed39350ac6d6e1c0.txt", (24,),
     "the softmax is defined with a sum over k* terms; for a measure with k' atoms it must run "
     "over k' (every check uses that reading)"),
    ("002-own-3", "002_ed39350ac6d6e1c0.txt", (96,),
     "priority claim ('first to combine the perturbation and the cosine router'): literature, "
     "not checkable"),
    # Seed 003 (continual learning): rows are added by the coverage work on that seed.
    (
        "003-09", "003_3078ccb5100b14b7.txt", (21, 231, 247, 253, 255, 256),
        "Figure 3 trains CNN experts on MNIST ($N = 3$ tasks, $M \\in \\{1, 4, 7\\}$, $s = 100$ "
        "averaged samples, the gate fed normalised $d \\times d$ images): neither MNIST nor a CNN "
        "framework is a dependency, and a stand-in on scikit-learn's $8 \\times 8$ digits would "
        "change both the data and "
        "the model class (no convolutional expert in scikit-learn; the seed trains a five-layer "
        "CNN, two convolutional and three dense layers), so its outcome would not "
        "bear on the figure's claim that the linear-model insights carry over to DNNs; a CNN "
        "run (the seed reports 100 minutes on a laptop CPU, L247) exceeds CI's time budget",
    ),
    (
        "003-97", "003_3078ccb5100b14b7.txt", (223,),
        "Top-k routing 'may' reduce forgetting but 'may not' reduce generalization error: a "
        "hedged remark about a variant (k experts trained on the same data) that Algorithm 1, "
        "the theory and the released code do not define (how the k experts' gate gradients and "
        "termination flags combine is unspecified), so no single reading can be simulated "
        "without inventing the algorithm",
    ),
    # Seed 003, found by the package's own read (exact and theory part):
    (
        '003-own-101',
        '003_3078ccb5100b14b7.txt',
        (27, 29),
        (
            'statements about other papers ([36], [37], [38], [39], [19], [20]) and their '
            "findings; they concern the cited works, not this paper's mathematics, and cannot "
            'be checked from the seed'
        ),
    ),
    (
        '003-own-102',
        '003_3078ccb5100b14b7.txt',
        (33, 37),
        (
            'summaries of prior MoE and MoE-in-CL work ([10], [12], [14], [15], [21], [22]); '
            'statements about the cited works, not checkable from the seed'
        ),
    ),
    (
        '003-own-103',
        '003_3078ccb5100b14b7.txt',
        (243, 244, 245, 246, 247),
        (
            "the authors' hardware and run times (macOS laptop; 40, 100 and 80 minutes for "
            "Figures 2, 3 and 4-5); they describe the authors' runs, and our run times are "
            'our own'
        ),
    ),
    (
        '003-own-105',
        '003_3078ccb5100b14b7.txt',
        (406, 562, 600, 684, 713),
        (
            "appendix titles call Propositions 1-4 'Lemma 1-4' (a translation mislabel); no "
            'mathematical content'
        ),
    ),
    (
        '003-own-106',
        '003_3078ccb5100b14b7.txt',
        (433,),
        (
            'the definition of $\\delta_\\Theta$ writes $\\theta^{(m)}$ for both experts (a '
            'notation '
            "slip; the proof at L488 uses $\\theta^{(m')}$); a definition, not a statement to check"
        ),
    ),
    (
        '003-own-107',
        '003_3078ccb5100b14b7.txt',
        (592, 594, 596, 598),
        (
            "a garbled duplicate, inside Lemma 15's proof, of the $M < N$ $\\ell_\\infty$ chain of "
            "L560 and "
            "of 'this completes the proof of Lemma 1'; the chain itself is checked at "
            'L558-560'
        ),
    ),
    (
        '003-own-108',
        '003_3078ccb5100b14b7.txt',
        (767,),
        (
            '$c_{i,j}$ is defined (garbled) but never used in the proof of Theorem 1; nothing '
            'to check'
        ),
    ),
    (
        '003-own-109',
        '003_3078ccb5100b14b7.txt',
        (5, 9, 11, 13),
        (
            'abstract and introduction narrative (motivation, MoE success in LLMs); the '
            "abstract's results are the claims of Sections 4-6 and are checked there"
        ),
    ),
    # Seed 003, session-4 re-read (every line; the claims it added are in
    # proofs_checks/li2025continual/proofs.py):
    (
        '003-own-110',
        '003_3078ccb5100b14b7.txt',
        (227,),
        (
            "'our work already includes a more comprehensive experimental investigation than "
            "most CL theory studies': a comparison with the literature, not checkable from "
            'the seed'
        ),
    ),
    (
        '003-own-111',
        '003_3078ccb5100b14b7.txt',
        (235,),
        (
            "the conclusion restates the abstract's results (as 003-own-109); each is checked "
            'by its claim of Sections 4-6'
        ),
    ),
    (
        '003-own-112',
        '003_3078ccb5100b14b7.txt',
        (536, 590, 620, 628, 682, 785, 799),
        (
            "proofs left out ('the $M < N$ case is proved the same way', 'similar, omitted', "
            "'a similar expression holds for $t > T_1$'): no argument to check; the statements "
            'they stand for are checked on the simulator (cl.lemma13.softmax-order, '
            'cl.lemma15.softmax-order, cl.prop2.t1-gaps, cl.prop2.no-termination, '
            'cl.thm2.bounds)'
        ),
    ),
)
