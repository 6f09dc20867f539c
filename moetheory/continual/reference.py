"""A plain per-round reference implementation of Algorithm 1, for tests and benchmarks.

One replicate, explicit loops over experts, the pseudo-inverse for eq. (5) and metrics
recomputed from scratch every round (``O(t)`` per round). It draws its randomness exactly
like :func:`moetheory.continual.simulate` with ``replicates=1``, so the two can be compared
round by round.
"""

from __future__ import annotations

import math

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.continual._docs import REFERENCES
from moetheory.continual.config import CLConfig
from moetheory.continual.data import ground_truths, task_batch
from moetheory.continual.simulator import BLOCK

__all__ = ["reference_run"]


@fill_doc(REFERENCES)
def reference_run(cfg: CLConfig, seed: int | None = None) -> dict[str, np.ndarray]:
    r"""Run Algorithm 1 once with plain loops and return its records.

    Parameters
    ----------
    cfg : CLConfig
        The configuration (number of experts, data model, reading options, rounds ``T``).
    seed : int or None, optional
        Seed of the three random streams (ground truths, tasks, routing noise); ``None``
        draws fresh entropy.

    Returns
    -------
    dict of str to ndarray
        ``forgetting``, ``generalization``, ``forgetting_code``, ``generalization_code``
        (float, shape (T,); the code metrics are zero unless ``cfg.code_metrics``),
        ``expert`` and ``task`` (int, shape (T,), 0-based), ``termination_round`` (0-d int,
        1-based round at which the gate stopped updating, -1 if it never did), ``weights``
        (final expert models, shape (M, d)) and ``gate`` (final gate parameters
        :math:`\theta`, shape (M, d)).

    Raises
    ------
    ValueError
        From the data generators for an inconsistent configuration; ``cfg`` itself was
        validated when it was built.

    See Also
    --------
    moetheory.continual.simulate : the vectorised simulator this implementation checks.
    moetheory.continual.config.CLConfig : the configuration and its readings.

    Notes
    -----
    Each round :math:`t` of Algorithm 1 [1]_: draw the task :math:`n_t` and its features
    :math:`X_t`; route to :math:`m_t = \arg\max_m (h_m + r_m)` with
    :math:`h_m = \theta_m^\top \sum_i X_{t,i}` and :math:`r_m \sim U[0, \lambda]` (eq. (1));
    update the selected expert by the pseudo-inverse (eq. (5)),

    .. math:: w_t^{(m_t)} = w_{t-1}^{(m_t)} + (X_t^\top)^{+}(y_t - X_t^\top w_{t-1}^{(m_t)});

    record :math:`F_t` (eq. (15)) and :math:`G_t` (eq. (16)) recomputed from scratch
    (:math:`O(t)` per round); set the termination flags; and, while the gate is active, take
    the gradient step of eq. (9) on the losses (6)-(7),

    .. math:: \theta_m \leftarrow \theta_m - \eta \Big(\ell_{\mathrm{loc}}
              + \alpha \frac{M}{t} f_t^{(m_t)}\Big)\, \pi_{m_t}(\mathbb{1}[m = m_t] - \pi_m)
              \sum_i X_{t,i},

    where :math:`\ell_{\mathrm{loc}} = \|w_t^{(m_t)} - w_{t-1}^{(m_t)}\|^2` (unsquared in the
    code reading) and :math:`f_t^{(m_t)}` is the selected expert's share of the rounds so far
    (1 when ``cfg.aux_f`` is false). The random streams are drawn exactly as in the
    vectorised simulator with one replicate, so the two agree round by round.

    %(references)s

    Examples
    --------
    >>> out = reference_run(CLConfig(M=2, T=5), seed=0)
    >>> out["forgetting"].shape, out["weights"].shape, int(out["forgetting"][0])
    ((5,), (2, 10), 0)
    """
    M, d, T = cfg.M, cfg.d, cfg.T
    truth_ss, task_ss, route_ss = np.random.SeedSequence(seed).spawn(3)
    W, V = ground_truths(cfg, np.random.default_rng(truth_ss), 1)
    W, V1 = W[0], V
    task_rng = np.random.default_rng(task_ss)
    route_rng = np.random.default_rng(route_ss)
    w = [np.zeros(d) for _ in range(M)]
    theta = [np.zeros(d) for _ in range(M)]
    history: list[tuple[int, int, float]] = []  # (expert, task, error right after training)
    counts = [0] * M
    flags = [False] * M
    active = True
    term_round = -1
    out = {k: np.zeros(T) for k in ("forgetting", "generalization", "forgetting_code",
                                     "generalization_code")}
    out["expert"] = np.zeros(T, dtype=np.int64)
    out["task"] = np.zeros(T, dtype=np.int64)
    gamma = cfg.resolved_gamma
    start = math.ceil(M / cfg.eta - 1e-12) if cfg.code_schedule else cfg.T1
    flag_from = start + 1 if cfg.flag_start == "after-T1" else start
    min_rounds = 80 + 3 * M + 1 if cfg.code_schedule else 0
    for start in range(0, T, BLOCK):
        nb = min(BLOCK, T - start)
        batch = task_batch(cfg, task_rng, V1, nb)
        noise = cfg.lam * route_rng.random((1, nb, M))
        for b in range(nb):
            t = start + b + 1
            X = batch.X[0, b]
            n = int(batch.task[0, b])
            xbar = X.sum(axis=1)
            h = [float(theta[m] @ xbar) for m in range(M)]
            hn = [h[m] + float(noise[0, b, m]) for m in range(M)]
            m_t = int(np.argmax(hn)) if M > 1 else 0
            y = X.T @ W[n]
            old = w[m_t]
            w[m_t] = old + np.linalg.pinv(X.T) @ (y - X.T @ old)
            step = float(np.linalg.norm(w[m_t] - old))
            history.append((m_t, n, float(np.sum((w[m_t] - W[n]) ** 2))))
            counts[m_t] += 1
            now = [float(np.sum((w[m] - W[k]) ** 2)) for m, k, _ in history]
            out["forgetting"][t - 1] = (
                sum(now[i] - history[i][2] for i in range(t - 1)) / (t - 1) if t > 1 else 0.0
            )
            out["generalization"][t - 1] = sum(now) / t
            if cfg.code_metrics:
                root_now = [math.sqrt(x) for x in now]
                out["forgetting_code"][t - 1] = (
                    sum(abs(root_now[i] - math.sqrt(history[i][2])) for i in range(t - 2))
                    / (t - 1) if t > 1 else 0.0
                )
                out["generalization_code"][t - 1] = sum(root_now[: t - 1]) / t
            out["expert"][t - 1] = m_t
            out["task"][t - 1] = n
            if M == 1:
                continue
            if active and cfg.terminate and t >= flag_from:
                g = hn if cfg.flag_gate == "noisy" else h
                if cfg.flag_memory == "round":  # each round's flags afresh
                    flags = [False] * M
                for m in range(M):
                    if (m != m_t or cfg.flag_selected) and abs(g[m] - g[m_t]) < gamma:
                        flags[m] = True
                if all(flags) and t >= min_rounds:
                    active = False
                    term_round = t
            if not active:
                continue
            z = np.array(hn if cfg.softmax == "noisy" else h)
            pi = np.exp(z - z.max())
            pi /= pi.sum()
            loc = step**2 if cfg.loc_norm == "squared" else step
            f = counts[m_t] / t if cfg.aux_f else 1.0
            coef = loc + cfg.alpha * M / t * f
            for m in range(M):
                dpi = pi[m_t] * ((1.0 if m == m_t else 0.0) - pi[m])
                theta[m] = theta[m] - cfg.eta * coef * dpi * xbar
    out["termination_round"] = np.array(term_round)
    out["weights"] = np.array(w)
    out["gate"] = np.array(theta)
    return out
