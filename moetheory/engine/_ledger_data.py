"""Statements of the seeds that no claim checks, each with the reason (the coverage ledger).

Each row is ``(key, seed_file, lines, reason)``: ``key`` is the audit-row key of
``shared/audit-rows.md`` (``"003-41"``) or, for a statement found by the package's own read,
``"<seed prefix>-own-<n>"``; ``lines`` are 1-based line numbers of the seed file. A statement
that a claim checks is recorded on the claim (``sources`` and ``covers``), never here.
"""

UNCHECKED: tuple[tuple[str, str, tuple[int, ...], str], ...] = (
    # Seed 000 (rebuttal) and 002 (paper): rows are added by the coverage work on those seeds.
    # Seed 003 (continual learning): rows are added by the coverage work on that seed.
    (
        "003-09", "003_3078ccb5100b14b7.txt", (21, 231, 247, 253, 255, 256),
        "Figure 3 trains CNN experts on MNIST (N = 3 tasks, M ∈ {1, 4, 7}, s = 100 averaged "
        "samples, the gate fed normalised d×d images): neither MNIST nor a CNN framework is a "
        "dependency, and a stand-in on scikit-learn's 8×8 digits would change both the data and "
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
)
