"""Data-model readings and the Issue-11 specifics of seed 003's dynamics checks."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from moetheory import CheckContext, Verdict
from moetheory.continual import simulate
from proofs_checks.li2025continual._flags import ALTERNATIVE_FLAGS
from proofs_checks.li2025continual._simulation import RANDOM_BETA, reading_config
from proofs_checks.li2025continual.experts import check_more_experts
from proofs_checks.li2025continual.training import (
    NEARLY_FROZEN,
    _prop1_comparisons,
    ground_truth_scale,
    prop_runs,
)


def test_reading_config_names_the_three_data_readings() -> None:
    assert reading_config(RANDOM_BETA, M=4).beta == "uniform"
    assert reading_config("paper").beta == "fixed"
    assert reading_config("code").data_model == "code"
    with pytest.raises(ValueError, match="reading must be one of"):
        reading_config("paper, β = 2")


def test_random_beta_reading_draws_a_fresh_beta_every_round() -> None:
    fixed = simulate(reading_config("paper", M=3, T=40), 2, seed=1)
    random = simulate(reading_config(RANDOM_BETA, M=3, T=40), 2, seed=1)
    # same ground truths and task sequence, different features: the errors differ
    assert np.array_equal(fixed.task, random.task)
    assert np.array_equal(fixed.ground_truths, random.ground_truths)
    assert not np.array_equal(fixed.model_error, random.model_error)


@pytest.mark.parametrize("reading", ["paper", RANDOM_BETA, "code"])
def test_prop1_frozen_threshold_is_relative_to_each_readings_ground_truths(reading: str) -> None:
    res, _ = prop_runs(reading, 8, seed=3, T=60)
    scale = ground_truth_scale(res)
    norms = np.sqrt((res.ground_truths**2).sum(axis=-1)).mean(axis=1)
    assert np.allclose(scale, norms)
    # ground truths of norm ≈ σ0·√d (Definition 1) and exactly σ0 (code): 3.16× apart
    expected = 0.4 if reading == "code" else 0.4 * np.sqrt(10)
    assert 0.5 * expected < scale.mean() < 1.5 * expected
    for factor, frozen in ((0.5 * NEARLY_FROZEN, True), (2 * NEARLY_FROZEN, False)):
        updates = np.broadcast_to((factor * scale)[:, None], res.update_norm.shape).copy()
        _, approx, ev = _prop1_comparisons(dataclasses.replace(res, update_norm=updates), 0.2)
        assert ev["replicates_nearly_frozen"] == (8 if frozen else 0)
        assert approx[0].verdict is (Verdict.SUPPORTED if frozen else Verdict.UNSUPPORTED)


@pytest.mark.slow
def test_more_experts_separates_whether_and_when_a_run_terminates() -> None:
    out = check_more_experts(CheckContext("cl.more-experts", seed=0))
    assert [r.name for r in out.readings] == [RANDOM_BETA, "paper", "code",
                                              f"{RANDOM_BETA}; mean of rounds"] + [
        f"{RANDOM_BETA}; flags: {name}" for name in ALTERNATIVE_FLAGS]
    # each reading runs its own flags: the literal ones, the code's, then the others
    assert [r.evidence["flags"] for r in out.readings] == [
        "literal", "literal", "code", "literal", *ALTERNATIVE_FLAGS]
    assert out.readings[2].evidence["config"]["flag_selected"] is False
    assert out.readings[0].evidence["config"]["beta"] == "uniform"
    for reading in out.readings:
        labels = [row["label"] for row in reading.evidence["comparisons"]]
        whether = [x for x in labels if x.startswith("P(termination by T)")]
        when = [x for x in labels if x.startswith("termination round given termination")]
        later = [x for x in labels if "terminates later" in x]
        if reading.name.endswith("; mean of rounds"):  # the reading before issue 32
            assert len(whether) == 2 and len(when) == 2 and not later
            assert all("given termination" not in x for x in whether)
        else:  # paired: a run not terminated by T terminates after T, no conditioning
            assert len(later) == 2 and not whether and not when



def test_lemma1_gate_difference_step_is_refuted_and_its_holder_form_holds() -> None:
    from proofs_checks.li2025continual.lemmas import check_lemma1_gate_difference

    out = check_lemma1_gate_difference(CheckContext("cl.lemma1.gate-difference-step", seed=0))
    verdicts = {r.name: r.verdict for r in out.readings}
    assert out.verdict is Verdict.REFUTED
    assert verdicts == {"as-printed": Verdict.REFUTED, "abs-max": Verdict.REFUTED,
                        "holder": Verdict.PROVED}
    ev = out.readings[0].evidence
    assert ev["lhs"] == 2 and ev["rhs"] == 0


def test_a_grid_claim_is_declared_once_and_registers_its_check() -> None:
    """One declaration (grid_claim) states a grid claim's texts, design and reading; the
    check it makes is the module's attribute, named as the reading, and its reading text
    names the readings run."""
    from moetheory.engine.registry import get_claim, load_checks
    from proofs_checks.li2025continual import lemmas, proofs
    from proofs_checks.li2025continual._readings import READINGS_NOTE, grid_claim

    load_checks()
    for cid, module, name in (("cl.lemma6.gate-bound", lemmas, "check_lemma6"),
                              ("cl.lemma13.softmax-order", proofs, "check_lemma13")):
        c = get_claim(cid)
        assert c.check is getattr(module, name)
        assert (c.check.__module__, c.check.__qualname__) == (module.__name__, name)
        assert c.kind == "statistical" and c.reading.endswith("; " + READINGS_NOTE)
    with pytest.raises(ValueError, match="comparisons must be at least 1"):
        grid_claim("cl.x", statement="s", sources={}, covers=[], reading="r", comparisons=0,
                   runs="free")


def test_the_other_flag_readings_are_read_by_one_helper() -> None:
    """other_flag_readings: each flag reading of the runs but the primary one, in order, named
    and described from the data reading, its evidence's 'flags' set (replacing a value the
    judge gave in place); no runs (runs without termination): no readings; a name that is no
    flag reading is an error."""
    from proofs_checks.li2025continual._flags import (
        FLAG_TEXT,
        PRIMARY_FLAGS,
        flag_reading_name,
        other_flag_readings,
    )

    runs = {name: i for i, name in enumerate((PRIMARY_FLAGS, *ALTERNATIVE_FLAGS))}
    seen: list[int] = []

    def judge(name: str, n: int) -> tuple[str, list[object], dict[str, object], str]:
        seen.append(n)
        return (name, [], {"flags": "stale", "n": n}, f"deriv {n}")

    out = other_flag_readings("paper", runs, judge, lambda n: f"text {n}")
    assert seen == list(range(1, len(ALTERNATIVE_FLAGS) + 1))
    assert [data for data, _ in out] == [
        (flag_reading_name("paper", f), [], {"flags": f, "n": runs[f]}, f"deriv {runs[f]}")
        for f in ALTERNATIVE_FLAGS]
    assert [list(data[2]) for data, _ in out] == [["flags", "n"]] * len(ALTERNATIVE_FLAGS)
    for (_, text), f in zip(out, ALTERNATIVE_FLAGS, strict=True):
        assert text.startswith(f"text {runs[f]}; ") and FLAG_TEXT[f] in text
    fixed = other_flag_readings("code", runs, judge, "same text")
    assert all(text.startswith("same text; ") for _, text in fixed)
    assert other_flag_readings("paper", {PRIMARY_FLAGS: 0}, judge, "t") == []
    assert other_flag_readings("paper", {}, judge, "t") == []
    with pytest.raises(KeyError):
        other_flag_readings("paper", {"no such flags": 0}, judge, "t")


def test_prop3_judges_its_readings_in_the_order_it_reports_them() -> None:
    # Calibration keys a check's comparisons by label and occurrence, in the order they are
    # decided: the flags' other readings, reported last, must also be judged last.
    from moetheory.stats import claimed_values
    from proofs_checks.li2025continual.training import check_prop3

    record: list = []
    with claimed_values(None, record):
        out = check_prop3(CheckContext("cl.prop3.balance", seed=0))
    reported = [(c["label"], c["n"], c["estimate"])
                for r in out.readings for c in r.evidence["comparisons"]]
    decided = [(str(c.label), c.estimate.n, c.estimate.mean) for c in record]
    assert [d[:2] for d in decided] == [r[:2] for r in reported]
    np.testing.assert_allclose([d[2] for d in decided], [r[2] for r in reported], atol=1e-3)
