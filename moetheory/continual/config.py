r"""Configuration of the continual-learning MoE simulator (seed 003, Section 3, Algorithm 1).

:class:`CLConfig` holds the paper's parameters (Appendix A.2 defaults) and one option for each
detail the paper leaves open. Two named readings fix those options:

``reading="paper"``
    Definition 1 and eqs. (5)-(9) as written: clean softmax
    :math:`\pi_m = \mathrm{softmax}(h)` in the losses, squared norm in the local loss (6),
    :math:`f_t^{(m_t)}` kept in the auxiliary gradient, flags of Algorithm 1 evaluated on the
    clean gate outputs for :math:`t > T_1 = \lceil M/\eta \rceil` for each expert :math:`m`,
    the selected :math:`m_t` included (the most literal reading of seed 003, L109-L111).
``reading="code"``
    The authors' released code: noisy softmax :math:`\mathrm{softmax}(h + r)`, unsquared norm
    in (6), no :math:`f` factor, flags on the noisy gate values from :math:`t \ge M/\eta`
    (0-based) and updates kept at least until round :math:`80 + 3M` (0-based), the selected
    expert never flagged; the code's data model.

Any option left ``None`` takes the value of the reading; an explicit value overrides it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

from moetheory._doccer import fill_doc
from moetheory.continual._docs import REFERENCES

__all__ = ["READINGS", "CLConfig"]

#: The two named readings of the seed.
READINGS: tuple[str, ...] = ("paper", "code")

_CHOICES: dict[str, tuple[Any, ...]] = {
    "softmax": ("clean", "noisy"),
    "loc_norm": ("squared", "unsquared"),
    "flag_gate": ("clean", "noisy"),
    "data_model": ("definition1", "code"),
    "beta": ("fixed", "uniform"),
    "flag_start": ("after-T1", "at-T1"),
    "flag_memory": ("sticky", "round"),
}

_READING_DEFAULTS: dict[str, dict[str, Any]] = {
    "paper": {
        "softmax": "clean",
        "loc_norm": "squared",
        "aux_f": True,
        "flag_gate": "clean",
        "flag_selected": True,
        "flag_start": "after-T1",
        "code_schedule": False,
        "data_model": "definition1",
        "code_metrics": False,
    },
    "code": {
        "softmax": "noisy",
        "loc_norm": "unsquared",
        "aux_f": False,
        "flag_gate": "noisy",
        "flag_selected": False,
        "flag_start": "after-T1",
        "code_schedule": True,
        "data_model": "code",
        "code_metrics": True,
    },
}


@dataclass(frozen=True)
@fill_doc(REFERENCES)
class CLConfig:
    r"""Parameters of one continual-learning MoE run (seed 003, Algorithm 1).

    Parameters
    ----------
    M : int
        Number of experts (``M = 1`` is the single expert, no gate).
    N : int
        Number of ground truths (tasks) in the pool ``W``.
    K : int
        Number of task clusters, :math:`1 \le K \le N`; task ``n`` (0-based) lies in cluster
        :math:`n \bmod K` (Appendix A.4: :math:`W_1 = \{1, 4\}`, ...).
    d, s : int
        Dimension and samples per task, :math:`1 \le s < d` (over-parameterised).
    sigma0 : float
        Ground-truth scale :math:`\sigma_0 > 0` (Definition 1, Appendix A.2).
    sigma_t : float
        Noise level :math:`\sigma_t \ge 0` of the non-signal samples (Definition 1).
    eta : float
        Gate learning rate :math:`\eta > 0` of eq. (9).
    alpha : float
        Weight :math:`\alpha \ge 0` of the auxiliary loss (7).
    lam : float
        Routing noise bound :math:`\lambda > 0`: :math:`r_m \sim \mathrm{Unif}[0, \lambda]`
        (eq. (1)).
    T : int
        Number of rounds, :math:`T \ge 1`.
    gamma : float or None
        Termination threshold :math:`\Gamma > 0` of Algorithm 1; ``None`` means
        :math:`\sigma_0^{1.25}`.
    terminate : bool
        Whether Algorithm 1's early termination is used.
    reading : {"paper", "code"}
        Named reading fixing the options below when they are ``None``.
    softmax : {"clean", "noisy"} or None
        Softmax of :math:`h` or of :math:`h + r` in the losses (6)-(7).
    loc_norm : {"squared", "unsquared"} or None
        Norm of :math:`w_t - w_{t-1}` in the local loss (6).
    aux_f : bool or None
        Whether the auxiliary gradient carries the factor :math:`f_t^{(m_t)}` (Lemma 4's form).
    flag_gate : {"clean", "noisy"} or None
        Gate values compared with :math:`\Gamma` by the termination flags.
    flag_selected : bool or None
        Whether the selected expert :math:`m_t` itself is flagged (its gap
        :math:`|h_{m_t} - h_{m_t}| = 0 < \Gamma`; Algorithm 1 "for each expert m"); the
        released code skips :math:`m_t`.
    flag_start : {"after-T1", "at-T1"} or None
        First round whose flags are evaluated: :math:`t > T_1` (the seed's "对于"
        :math:`t > T_1`, L111; both readings) or :math:`t \ge T_1`. Under ``code_schedule``
        the round :math:`\lceil M/\eta \rceil` takes the place of :math:`T_1` (the code's
        0-based :math:`t \ge M/\eta` is :math:`t > T_1` counted from 1).
    flag_memory : {"sticky", "round"}
        Whether a flag, once set, stays set (``"sticky"``: termination when every expert has
        been flagged in some round since the flags' first round) or is evaluated afresh each
        round (``"round"``: termination when every gap is below :math:`\Gamma` in the same
        round).
        The seed says neither (L109, L111); ``"sticky"`` is the released code's.
    code_schedule : bool or None
        Code's schedule: flags from 0-based round :math:`M/\eta`, updates at least until
        round :math:`80 + 3M`.
    data_model : {"definition1", "code"} or None
        Definition 1 (with Appendix A.2) or the released code's data.
    beta : {"fixed", "uniform"}
        :math:`\beta_t = C` (Appendix A.2 fills one column with :math:`v_n`) or
        :math:`\beta_t \sim \mathrm{Unif}(0, C]`.
    beta_max : float
        The constant :math:`C > 0` of Definition 1.
    signal_scale : float or None
        Definition-1 model: :math:`v_n = c \, w_n`, :math:`c` = ``signal_scale`` ("scaled by a
        constant", A.2); ``None`` means :math:`1/\sigma_0` so that
        :math:`\|v_n\|_\infty = O(1)`.
    cluster_spread : float or None
        Definition-1 model: members of a cluster are its centre plus
        :math:`\rho \cdot \mathrm{Unif}[-1/2, 1/2]^d`, :math:`\rho` = ``cluster_spread``, so
        :math:`\|w_n - w_{n'}\|_\infty \le \rho` (Section 5.2: :math:`O(\sigma_0^{1.5})`);
        ``None`` means :math:`\sigma_0^{1.5}`. Code model: the Gaussian spread factor, ``None``
        meaning :math:`\sigma_0 / 200`.
    code_rank : int
        Code model: ground truths live in the first ``code_rank`` coordinates (at most
        :math:`d`).
    signal_norm : float
        Code model: :math:`v_n = c \, w_n / \|w_n\|`, :math:`c` = ``signal_norm``.
    column_norm : float
        Code model: norm of the random columns' first ``code_rank`` coordinates.
    code_metrics : bool or None
        Also compute the code's metrics (unsquared norms, absolute differences, its indices).

    Raises
    ------
    ValueError
        On construction, naming the parameter and its allowed range, if a reading or an
        option is not one of its choices, an integer parameter is not an integer or out of
        range (``M, N, T >= 1``, ``1 <= K <= N``, ``d >= 2``, ``1 <= s < d``,
        ``1 <= code_rank <= d`` for the code model), a rate or scale is not finite and
        positive (``sigma0, eta, lam, beta_max, signal_norm, column_norm``, and ``gamma``,
        ``signal_scale`` when given), a level is negative (``sigma_t, alpha``,
        ``cluster_spread``), or a flag is not a bool.

    See Also
    --------
    READINGS : the two named readings.
    moetheory.continual.simulate : run Algorithm 1 under a configuration.
    moetheory.continual.reference.reference_run : a plain-loop run of the same algorithm.
    moetheory.strategies.cl_settings : Hypothesis strategy of valid settings.

    Notes
    -----
    Algorithm 1 of the paper [1]_: at round :math:`t` a task :math:`n_t` arrives with
    features :math:`X_t \in \mathbb{R}^{d \times s}`; the gate computes
    :math:`h_m = \theta_m^\top \sum_i X_{t,i}` and routes to
    :math:`m_t = \arg\max_m (h_m + r_m)`, :math:`r_m \sim U[0, \lambda]` (eq. (1)); the
    selected expert moves to the minimum-norm interpolant (eq. (5)),

    .. math:: w_t^{(m_t)} = w_{t-1}^{(m_t)} + X_t (X_t^\top X_t)^{-1}
              (y_t - X_t^\top w_{t-1}^{(m_t)}),

    and the gate takes a gradient step of size :math:`\eta` on the local loss (6) plus
    :math:`\alpha` times the auxiliary load-balancing loss (7) (eqs. (8)-(9)) until the
    termination rule with threshold :math:`\Gamma` fires. The defaults are Appendix A.2's,
    :math:`\sigma_0 = 0.4, \sigma_t = 0.1, d = 10, s = 6, \eta = \alpha = 0.5,
    \lambda = 0.3`, with :math:`N = 7, K = 3` of the Figure 2 experiment (Section 6) and
    :math:`M = 5`, one of its numbers of experts.
    The instance is frozen; :meth:`replace` makes a modified copy.

    %(references)s

    Examples
    --------
    >>> cfg = CLConfig(M=5, T=100)
    >>> cfg.resolved_gamma == 0.4 ** 1.25, cfg.T1
    (True, 10)
    >>> CLConfig(s=10)
    Traceback (most recent call last):
    ...
    ValueError: s must satisfy 1 <= s < d = 10 (over-parameterised regime), got 10
    >>> CLConfig(reading="code").softmax, CLConfig(reading="code", softmax="clean").softmax
    ('noisy', 'clean')
    """

    M: int = 5
    N: int = 7
    K: int = 3
    d: int = 10
    s: int = 6
    sigma0: float = 0.4
    sigma_t: float = 0.1
    eta: float = 0.5
    alpha: float = 0.5
    lam: float = 0.3
    T: int = 2000
    gamma: float | None = None
    terminate: bool = True
    reading: str = "paper"
    softmax: str | None = None
    loc_norm: str | None = None
    aux_f: bool | None = None
    flag_gate: str | None = None
    flag_selected: bool | None = None
    flag_start: str | None = None
    flag_memory: str = "sticky"
    code_schedule: bool | None = None
    data_model: str | None = None
    beta: str = "fixed"
    beta_max: float = 1.0
    signal_scale: float | None = None
    cluster_spread: float | None = None
    code_rank: int = 6
    signal_norm: float = 6.0
    column_norm: float = 0.1
    code_metrics: bool | None = None

    def __post_init__(self) -> None:
        if self.reading not in READINGS:
            raise ValueError(f"reading must be one of {READINGS}, got {self.reading!r}")
        for name, value in _READING_DEFAULTS[self.reading].items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        self._validate()

    def _validate(self) -> None:
        for name in ("M", "N", "K", "d", "s", "T", "code_rank"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an integer, got {value!r}")
        _check(self.M >= 1, f"M must be an integer >= 1, got {self.M}")
        _check(self.N >= 1, f"N must be an integer >= 1, got {self.N}")
        _check(1 <= self.K <= self.N, f"K must satisfy 1 <= K <= N = {self.N}, got {self.K}")
        _check(self.d >= 2, f"d must be an integer >= 2, got {self.d}")
        _check(
            1 <= self.s < self.d,
            f"s must satisfy 1 <= s < d = {self.d} (over-parameterised regime), got {self.s}",
        )
        _check(self.T >= 1, f"T must be an integer >= 1, got {self.T}")
        _positive(self, "sigma0")
        _positive(self, "eta")
        _positive(self, "lam")
        _positive(self, "beta_max")
        _positive(self, "signal_norm")
        _positive(self, "column_norm")
        _nonnegative(self, "sigma_t")
        _nonnegative(self, "alpha")
        if self.gamma is not None:
            _positive(self, "gamma")
        if self.signal_scale is not None:
            _positive(self, "signal_scale")
        if self.cluster_spread is not None:
            _nonnegative(self, "cluster_spread")
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        for name in ("terminate", "aux_f", "flag_selected", "code_schedule", "code_metrics"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.data_model == "code":
            _check(
                1 <= self.code_rank <= self.d,
                f"code_rank must satisfy 1 <= code_rank <= d = {self.d}, got {self.code_rank}",
            )

    @property
    def resolved_gamma(self) -> float:
        r"""The termination threshold :math:`\Gamma` used: ``gamma``, or :math:`\sigma_0^{1.25}`.

        Returns
        -------
        float
            :math:`\Gamma > 0` (Algorithm 1; Appendix A.2 uses :math:`\sigma_0^{1.25}`).

        Examples
        --------
        >>> CLConfig(gamma=0.2).resolved_gamma
        0.2
        """
        return float(self.gamma) if self.gamma is not None else self.sigma0**1.25

    @property
    def T1(self) -> int:
        r"""Length of the exploration phase, :math:`T_1 = \lceil M/\eta \rceil` (Proposition 1).

        Returns
        -------
        int
            :math:`T_1`, with a tolerance of :math:`10^{-12}` so that an exact ratio such as
            :math:`M/\eta = 10` is not rounded up by floating-point error.

        Examples
        --------
        >>> CLConfig(M=3, eta=0.4).T1
        8
        """
        return math.ceil(self.M / self.eta - 1e-12)

    @property
    def resolved_signal_scale(self) -> float:
        r"""Definition-1 model: the constant :math:`c` of :math:`v_n = c\, w_n`.

        Returns
        -------
        float
            ``signal_scale``, or :math:`1/\sigma_0` when it is ``None``.

        Examples
        --------
        >>> CLConfig(sigma0=0.5).resolved_signal_scale
        2.0
        """
        return self.signal_scale if self.signal_scale is not None else 1.0 / self.sigma0

    @property
    def resolved_cluster_spread(self) -> float:
        r"""Within-cluster spread of the ground truths (see the ``cluster_spread`` parameter).

        Returns
        -------
        float
            ``cluster_spread``, or its default: :math:`\sigma_0^{1.5}` under the Definition-1
            model, :math:`\sigma_0/200` under the code model.

        Examples
        --------
        >>> CLConfig(sigma0=0.25).resolved_cluster_spread
        0.125
        """
        if self.cluster_spread is not None:
            return float(self.cluster_spread)
        return self.sigma0**1.5 if self.data_model == "definition1" else self.sigma0 / 200

    def replace(self, **changes: Any) -> CLConfig:
        """A copy with ``changes`` applied, validated like a new instance.

        Parameters
        ----------
        **changes
            New values of fields of :class:`CLConfig`.

        Returns
        -------
        CLConfig
            The modified copy. Changing ``reading`` re-resolves every option not given
            explicitly in ``changes`` from the new reading.

        Raises
        ------
        ValueError
            If the modified configuration is invalid (see :class:`CLConfig`).
        TypeError
            If a key of ``changes`` is not a field.

        Examples
        --------
        >>> CLConfig().replace(reading="code").loc_norm
        'unsquared'
        >>> CLConfig().replace(T=0)
        Traceback (most recent call last):
        ...
        ValueError: T must be an integer >= 1, got 0
        """
        if "reading" in changes:
            for name in _READING_DEFAULTS["paper"]:
                changes.setdefault(name, None)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """All fields plus the resolved threshold, :math:`T_1`, signal scale and spread.

        Returns
        -------
        dict
            The dataclass fields, and ``gamma_used``, ``T1``, ``signal_scale_used`` and
            ``cluster_spread_used``: the record a check puts in its evidence.

        Examples
        --------
        >>> d = CLConfig(M=2, eta=0.5).to_dict()
        >>> d["M"], d["T1"], d["reading"]
        (2, 4, 'paper')
        """
        out = asdict(self)
        out.update(
            gamma_used=self.resolved_gamma,
            T1=self.T1,
            signal_scale_used=self.resolved_signal_scale,
            cluster_spread_used=self.resolved_cluster_spread,
        )
        return out


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


def _number(cfg: CLConfig, name: str) -> float:
    value = getattr(cfg, name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    return float(value)


def _positive(cfg: CLConfig, name: str) -> None:
    value = _number(cfg, name)
    _check(value > 0, f"{name} must be > 0, got {value}")


def _nonnegative(cfg: CLConfig, name: str) -> None:
    value = _number(cfg, name)
    _check(value >= 0, f"{name} must be >= 0, got {value}")
