"""Algorithm 1's termination flags, read four ways (issue 32): explicit readings of the seed.

Seed 003 describes the flags in two sentences (L109, L111). Two details are open: whether the
selected expert ``m_t`` is flagged too (its own gap ``|h_{m_t} - h_{m_t}|`` is ``0 < Γ``), and
whether flags are evaluated from ``t > T1`` or ``t >= T1``; in paired runs they move the median
termination round 2-5 times and ``G_T`` by up to 0.28. The most literal reading is primary:
"each expert m" includes ``m_t``, and the seed says "for t > T1". A third detail (issue 46):
the seed does not say whether a flag, once set, stays set. The four readings above assume it
does (sticky flags, as the released code; each reading's text says so); the fifth,
``round by round``, reads the stopping rule as "stop when every gap is below Γ in the same
round" (``flag_memory="round"``), which moves ``G_T`` about as much (1.12 against 1.24 in
Figure 2's setting). The others are reported beside the primary one, on the same data
(stacked runs), each check's reading made under each of them by :func:`other_flag_readings`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from moetheory.continual import CLConfig
from moetheory.stats import ReadingData

__all__ = [
    "ALTERNATIVE_FLAGS",
    "FLAG_READINGS",
    "FLAG_SEED_TEXT",
    "FLAG_TEXT",
    "PRIMARY_FLAGS",
    "ROUND_FLAGS",
    "STICKY",
    "flag_configs",
    "flag_reading_name",
    "flag_reading_text",
    "flags_of",
    "other_flag_readings",
]

#: The seed's own words on the flags (seed 003, L109 and L111), quoted in every flag reading.
FLAG_SEED_TEXT = (
    "seed 003 L109: '在足够的（即，T_1）轮次专家探索后，我们在算法 1 中引入了提前终止策略，"
    "通过评估每个专家 m 的收敛标志 I(m)' (after sufficient, i.e. T1, rounds of expert "
    "exploration, Algorithm 1 terminates early by evaluating the convergence flag I(m) of "
    "each expert m); L111: '这个标志评估输出间隙，定义为 |h_m(X_t, θ_t) − h_{m_t}(X_t, θ_t)|，"
    "专家本身和任何选定专家 m_t 之间的差距，对于 t > T_1' (the flag evaluates the output gap "
    "|h_m − h_{m_t}| between the expert itself and the selected expert m_t, for t > T1)"
)

#: A reading's runs under one flag reading (e.g. one result, or results by σ0 or by M).
Runs = TypeVar("Runs")

#: Primary reading of the flags: the most literal one.
PRIMARY_FLAGS = "literal"
#: The stopping rule read round by round: every gap below Γ in the same round.
ROUND_FLAGS = "round by round"

#: The assumption of every reading but :data:`ROUND_FLAGS`, which the seed does not state.
STICKY = ("sticky flags (assumed: once set, a flag stays set; the seed does not say so), "
          "stop once every expert has been flagged")

#: The four readings of the flags: :class:`~moetheory.continual.CLConfig` options, primary first.
FLAG_READINGS: dict[str, dict[str, Any]] = {
    PRIMARY_FLAGS: {"flag_selected": True, "flag_start": "after-T1", "flag_memory": "sticky"},
    "others only": {"flag_selected": False, "flag_start": "after-T1", "flag_memory": "sticky"},
    "from T1": {"flag_selected": True, "flag_start": "at-T1", "flag_memory": "sticky"},
    "others only, from T1": {"flag_selected": False, "flag_start": "at-T1",
                             "flag_memory": "sticky"},
    ROUND_FLAGS: {"flag_selected": True, "flag_start": "after-T1", "flag_memory": "round"},
}

#: The readings reported beside the primary one.
ALTERNATIVE_FLAGS: tuple[str, ...] = tuple(k for k in FLAG_READINGS if k != PRIMARY_FLAGS)

#: Each flag reading in words.
FLAG_TEXT: dict[str, str] = {
    PRIMARY_FLAGS: (
        "flags for each expert m, the selected m_t included (its gap 0 < Γ flags it), "
        f"evaluated for t > T1 (the seed's words read literally); {STICKY}"
    ),
    "others only": (
        "flags for every expert except the selected m_t (as the released code), for t > T1; "
        f"{STICKY}"
    ),
    "from T1": ("flags for each expert m, the selected m_t included, evaluated for t >= T1; "
                f"{STICKY}"),
    "others only, from T1": (
        f"flags for every expert except the selected m_t, evaluated for t >= T1; {STICKY}"
    ),
    ROUND_FLAGS: (
        "flags for each expert m, the selected m_t included, evaluated for t > T1 afresh "
        "every round (not sticky): stop when every gap |h_m − h_{m_t}| is below Γ in the "
        "same round"
    ),
    "code": (
        "the code's flags: noisy gate values from 0-based round M/η, every expert except the "
        f"selected m_t, updates at least until round 80 + 3M; {STICKY}"
    ),
}


def flag_configs(cfg: CLConfig, names: tuple[str, ...] = ALTERNATIVE_FLAGS) -> list[CLConfig]:
    """``cfg`` under each flag reading of ``names`` (default: the alternatives), in order.

    Examples
    --------
    >>> [c.flag_selected for c in flag_configs(CLConfig(M=3))]
    [False, True, False, True]
    """
    return [cfg.replace(**FLAG_READINGS[name]) for name in names]


def flag_reading_name(data_reading: str, flags: str) -> str:
    """The name of a data reading under another flag reading.

    Examples
    --------
    >>> flag_reading_name("paper", "others only")
    'paper; flags: others only'
    """
    return f"{data_reading}; flags: {flags}"


def flag_reading_text(data_text: str, flags: str) -> str:
    """The text of a data reading under the flag reading ``flags``, with the seed's words."""
    return (f"{data_text}; termination flags read as: {FLAG_TEXT[flags]} (the primary "
            f"reading is '{PRIMARY_FLAGS}': {FLAG_TEXT[PRIMARY_FLAGS]}; {FLAG_SEED_TEXT}); "
            "paired with the primary reading: the same data, stacked in one simulator call")


def flags_of(cfg: CLConfig) -> str:
    """The flag reading a configuration runs (a key of :data:`FLAG_READINGS`); ``"code"``
    under the code's schedule (flags from the code's round, updates kept to ``80 + 3M``).

    Examples
    --------
    >>> flags_of(CLConfig()), flags_of(CLConfig(flag_selected=False)), flags_of(
    ...     CLConfig(reading="code"))
    ('literal', 'others only', 'code')
    """
    if cfg.code_schedule:
        return "code"
    for name, options in FLAG_READINGS.items():
        if all(getattr(cfg, key) == value for key, value in options.items()):
            return name
    raise ValueError(f"no flag reading has flag_selected={cfg.flag_selected}, "
                     f"flag_start={cfg.flag_start!r}, flag_memory={cfg.flag_memory!r}")


def other_flag_readings(
    reading: str,
    runs: Mapping[str, Runs],
    judge: Callable[[str, Runs], ReadingData],
    text: str | Callable[[Runs], str],
) -> list[tuple[ReadingData, str]]:
    """The data reading ``reading`` read under each other reading of the flags, with its text.

    Parameters
    ----------
    reading : str
        The data reading (e.g. ``"paper"``) whose runs were repeated under the other flag
        readings, on the same data.
    runs : Mapping[str, Runs]
        Its runs by flag reading (a key of :data:`FLAG_TEXT`); the primary reading's, if
        there, are skipped (they are the data reading's own). Empty for runs without
        termination.
    judge : Callable[[str, Runs], ReadingData]
        Makes a reading's data (name, comparisons, evidence, derivation) from its name and
        runs, as for the data reading's own.
    text : str or Callable[[Runs], str]
        The data reading's text, or the text of the runs it is given.

    Returns
    -------
    list[tuple[ReadingData, str]]
        For each flag reading of ``runs`` but the primary one, in order: ``judge`` of its
        runs named by :func:`flag_reading_name`, the evidence's ``"flags"`` set to the flag
        reading, and its text by :func:`flag_reading_text`.

    Raises
    ------
    KeyError
        If a key of ``runs`` is not a flag reading of :data:`FLAG_TEXT`.

    Examples
    --------
    >>> out = other_flag_readings("paper", dict.fromkeys(FLAG_READINGS, 7),
    ...                           lambda name, runs: (name, [], {"runs": runs}, ""), "data")
    >>> [(data[0], data[2]["flags"]) for data, _ in out][:2]
    [('paper; flags: others only', 'others only'), ('paper; flags: from T1', 'from T1')]
    """
    out: list[tuple[ReadingData, str]] = []
    for flags, alt in runs.items():
        if flags == PRIMARY_FLAGS:
            continue
        name, comps, ev, deriv = judge(flag_reading_name(reading, flags), alt)
        data_text = text if isinstance(text, str) else text(alt)
        out.append(((name, comps, {**ev, "flags": flags}, deriv),
                    flag_reading_text(data_text, flags)))
    return out
