"""A comparison label with its typeset form (:class:`moetheory.stats.Label`): the design
that lets a check typeset its labels at their source without a calibration re-run."""

from __future__ import annotations

import json
import pickle

import pytest
from _bench import load_benchmark

from moetheory.stats import Label, MeanEstimate, compare, greater

calibrate = load_benchmark("calibrate")

PLAIN = "σ0=0.2: 1 − G(MoE)/G(M=1) > 0"
TYPESET = r"$\sigma_0 = 0.2$: $1 - G(\mathrm{MoE})/G(M=1) > 0$"


def test_a_label_is_its_plain_text_and_carries_its_latex() -> None:
    lab = Label(PLAIN, TYPESET)
    assert lab == PLAIN and hash(lab) == hash(PLAIN) and {lab: 1}[PLAIN] == 1
    assert json.dumps({"label": lab}) == json.dumps({"label": PLAIN})
    back = pickle.loads(pickle.dumps(lab))  # a worker process hands it back
    assert back == PLAIN and back.latex == TYPESET
    assert Label(PLAIN).latex == ""
    with pytest.raises(ValueError, match="latex must hold balanced"):
        Label(PLAIN, "$1 - G")


def test_typesetting_a_label_leaves_what_calibration_keys_and_hashes_unchanged() -> None:
    est = MeanEstimate(0.3, 0.1, 0.5, 40, 0.95)

    def run(label: str) -> tuple[str, str, list[tuple[str, str]]]:
        record = [greater(label, est, 0.0), compare(label, est, 0.3, 0.5)]
        payload = {"verdict": "supported", "evidence": {"comparisons": [
            c.to_dict() for c in record]}}
        keys = list(calibrate._keyed(record, sequential=False))
        return calibrate.behaviour_hash(payload, record), calibrate.entry_hash(payload), keys

    plain, typeset = run(PLAIN), run(Label(PLAIN, TYPESET))
    assert typeset == plain
    assert [k[1].latex for k in run(Label(PLAIN, TYPESET))[2][:1]] == [TYPESET]
    # a different meaning is a different comparison
    assert run("σ0=0.4: 1 − G(MoE)/G(M=1) > 0")[0] != plain[0]


def test_a_repeated_label_keeps_its_typeset_form() -> None:
    seen: dict = {}
    first = calibrate._numbered("greater", Label(PLAIN, TYPESET), seen)
    second = calibrate._numbered("greater", Label(PLAIN, TYPESET), seen)
    assert (first, first.latex) == (PLAIN, TYPESET)
    assert (second, second.latex) == (f"{PLAIN} [occurrence 2]", f"{TYPESET} [occurrence 2]")
    assert calibrate._labels_latex([("greater", second), ("at-most", "plain")]) == {
        f"greater: {PLAIN} [occurrence 2]": f"greater: {TYPESET} [occurrence 2]"}


def test_the_calibration_page_shows_a_typed_label_typeset(tmp_path) -> None:
    # issue 45: the page showed "greater: σ0=0.2: 1 − G(MoE)/G(M=1) > 0 [occurrence 2]"
    from test_docs_scan import markdown_formulas

    cid = "cl.moe.task-shift"
    key = f"greater: {PLAIN} [occurrence 2]"
    row = calibrate.Row(cid, 100, 4, fingerprint=calibrate.fingerprint(cid),
                        date="2026-12-08 00:00", harness=calibrate.HARNESS,
                        true_unsupported_by={key: 1},
                        labels_latex={key: f"greater: {TYPESET} [occurrence 2]"})
    calibrate.save_row(row, tmp_path)
    assert calibrate.load_rows(tmp_path)[cid] == row
    page = calibrate.render(tmp_path, [cid])
    note = next(ln for ln in page.splitlines() if "true variant unsupported by" in ln)
    assert f"greater: {TYPESET} [occurrence 2] (1/100)" in note, note
    assert not markdown_formulas(note), markdown_formulas(note)
