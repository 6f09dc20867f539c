"""Pinned results of the batched vowel-experiment training (seed 001), recorded on main at
85119a0 before the speed-up of issue 46 (b).

Training is deterministic bit for bit (:mod:`moetheory.jacobs.batched`: elementwise
operations, sums along the case axis, a portable exponential), so a faster implementation
must reproduce these records exactly: the specialization runs (both losses, 4 and 8
experts), the locality runs (training on copies of the inputs), the epochs to a criterion of
mixtures and backpropagation networks, and the portable exponential and sigmoid themselves.
"""

from __future__ import annotations

import hashlib

import numpy as np

from moetheory.jacobs import training
from moetheory.jacobs.batched import portable_exp_fast, portable_sigmoid
from moetheory.jacobs.training import run_specialization_many, train_standin_mixtures
from moetheory.jacobs.vowel import epochs_to_criterion

#: Final training losses (float.hex) of replicates 0-2 and a sha256 prefix of their mixing
#: proportions and peaks (float64 bytes); 30 epochs, generators ``default_rng([91, i])``.
SPECIALIZATION = {
    (4, "1.3"): ["0x1.4fcca22dbf9c3p-2", "0x1.4845d88c01343p-2", "0x1.33c70473f7737p-2",
                 "c43a7159fd18cfac"],
    (4, "1.1"): ["0x1.09eb6c055042dp-1", "0x1.eaa8cd82d37c3p-2", "0x1.e3021f8e7c894p-2",
                 "8569aaf0f6c64bb3"],
    (8, "1.3"): ["0x1.7f1a4bc55688fp-2", "0x1.9c148fead1563p-2", "0x1.990120dfde334p-2",
                 "b68850cda820dcd1"],
    (8, "1.1"): ["0x1.2d7a3af65f8d7p-1", "0x1.2432d12630e0ep-1", "0x1.1d6fd959fcd66p-1",
                 "ff9da17bcae8e859"],
}
#: sha256 prefix of the gate and expert weights of 8-expert mixtures trained on copies of
#: the inputs (the locality runs), 30 epochs.
COPIES = "234e3bc62d1ca015"
#: Epochs to a 60% training accuracy (at most 150).
EPOCHS = {"mixture": [109, 22, 11], "backprop": [40, 65, 66]}
#: sha256 prefix of portable_exp_fast and portable_sigmoid on a grid of [-750, 750] and
#: 3000 normal draws (sd 5, seed 0).
EXP = "6dc614f4419e635e"


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a, dtype="<f8").tobytes())
    return h.hexdigest()[:16]


def _rngs() -> list[np.random.Generator]:
    return [np.random.default_rng([91, i]) for i in range(3)]


def test_specialization_runs_keep_their_bits() -> None:
    for (k, name), pinned in SPECIALIZATION.items():
        res = run_specialization_many(k, name, _rngs(), 30)
        got = [r.final_loss.hex() for r in res]
        got.append(_digest(*(r.mixing for r in res), *(r.peak for r in res)))
        assert got == pinned, (k, name)


def test_locality_training_keeps_its_bits() -> None:
    # recorded training on copies of the inputs; the views into the data give the same bits
    net, *_ = train_standin_mixtures(8, "1.3", _rngs(), 30)
    assert _digest(net.gate, net.experts) == COPIES


def test_batches_of_replicates_do_not_change_the_bits(monkeypatch) -> None:
    # three replicates in batches of one (and of two for 4 experts): the pinned results
    monkeypatch.setattr(training, "BATCH_ELEMENTS", 8 * 4 * training.N_TRAIN)
    res = run_specialization_many(8, "1.3", _rngs(), 30)
    got = [r.final_loss.hex() for r in res]
    got.append(_digest(*(r.mixing for r in res), *(r.peak for r in res)))
    assert got == SPECIALIZATION[(8, "1.3")]
    res = run_specialization_many(4, "1.1", _rngs(), 30)
    got = [r.final_loss.hex() for r in res]
    got.append(_digest(*(r.mixing for r in res), *(r.peak for r in res)))
    assert got == SPECIALIZATION[(4, "1.1")]


def test_epochs_to_criterion_keep_their_values() -> None:
    for model, size in (("mixture", 4), ("backprop", 8)):
        res = epochs_to_criterion(model, size, _rngs(), 0.6, 150)
        assert res.epochs.tolist() == EPOCHS[model], model


def test_portable_exponential_and_sigmoid_keep_their_bits() -> None:
    x = np.concatenate([np.linspace(-750, 750, 30001),
                        np.random.default_rng(0).normal(0, 5, 3000)])
    assert _digest(portable_exp_fast(x), portable_sigmoid(x)) == EXP
