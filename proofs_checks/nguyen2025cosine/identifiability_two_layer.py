"""Checks of the strong-identifiability claims of two-layer experts (seed 000's answers):
ReLU with and without last bias, GELU.

Decided per reading of Definition 1 like the one-layer experts (:mod:`.identifiability`, the
machinery in :mod:`._ident_common`): the literal reading (every d, all atoms, every k) first,
then every reading at generic atoms (d = 1), hidden width 2 in the full profile, and the general
identities of the two-layer form (any activation, unit by unit).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from moetheory import CheckContext, Outcome, Reading
from moetheory.symbolic.experts import Expert, two_layer
from moetheory.symbolic.identifiability import PRIMARY_READING
from proofs_checks.nguyen2025cosine._common import S0
from proofs_checks.nguyen2025cosine._ident_common import (
    _PHI,
    _X,
    _all_readings,
    _curve_readings,
    _expert_claim,
    _family_outcome,
    _identifiable,
    _identity,
    _literal_primary,
    _reading,
)

__all__ = [
    "check_two_layer_gelu",
    "check_two_layer_relu_bias",
    "check_two_layer_relu_nobias",
]


def _two_layer_identities(last_bias: bool) -> list[dict[str, Any]]:
    w1, b1, w2, b2 = sp.symbols("W1 b1 W2 b2", real=True)
    h = _PHI(w1 * _X + b1) * w2 + (b2 if last_bias else 0)
    ids = [_identity("any phi, any width (per unit): d2h/dW2^2 = 0", sp.diff(h, w2, 2))]
    if last_bias:
        ids.append(_identity("d2h/db2^2 = 0", sp.diff(h, b2, 2)))
        ids.append(_identity("d2h/db2 dW2 = 0", sp.diff(h, b2, w2)))
        h2 = h.subs({w1: w1 + 1, b1: b1 - 1, w2: 2 * w2, b2: b2 + 3}, simultaneous=True)
        ids.append(_identity("dh/db2 = 1 at every atom: dh/db2(eta_1) - dh/db2(eta_2) = 0 "
                             "(fails every reading with k >= 2 atoms and first derivatives)",
                             sp.diff(h, b2) - sp.diff(h2, b2)))
    else:
        ids.append(_identity("h - W2 dh/dW2 = 0 (order 0 vs first order)",
                             h - w2 * sp.diff(h, w2)))
    relu_on = (w1 * _X + b1) * w2
    ids.append(_identity(
        "ReLU unit, active branch: W2 dh/dW2 - W1 dh/dW1 - b1 dh/db1 = 0",
        w2 * sp.diff(relu_on, w2) - w1 * sp.diff(relu_on, w1) - b1 * sp.diff(relu_on, b1),
    ))
    return ids


def _width2(ctx: CheckContext, act: str, last_bias: bool, says: bool) -> list[Reading]:
    """Full profile only: hidden width 2 under the primary and pcos-1-no-order0 readings."""
    if not ctx.full:
        return []
    e: Expert = two_layer(act, width=2, last_bias=last_bias)
    return [_reading(_identifiable(e, r), says, "width 2")
            for r in (PRIMARY_READING, "pcos-1-no-order0")]


def _two_layer_relu(ctx: CheckContext, last_bias: bool, says: bool) -> Outcome:
    """The two-layer ReLU expert with (``last_bias``) or without last bias, when the seed says
    it is (``says``) or is not strongly identifiable."""
    name = "two-layer-relu-bias" if last_bias else "two-layer-relu-nobias"
    readings = _all_readings(name, says)
    readings += _width2(ctx, "relu", last_bias, says)
    readings.insert(0, _literal_primary(says, [name]))
    return _family_outcome(readings, _two_layer_identities(last_bias))


@_expert_claim(
    "pcr.ident.two-layer-relu-bias",
    expert="ReLU(x W1 + b1) W2 + b2, width 1; the seed claims NOT strongly identifiable.",
    statement="the two-layer ReLU FFN with a last-layer bias, ReLU(xW1+b1)W2 + b2, is not strongly "
    "identifiable.",
    sources={S0: [165, 211]},
    statement_latex=r"The two-layer ReLU FFN with a last-layer bias, "
    r"$\mathrm{ReLU}(x W_1 + b_1) W_2 + b_2$, "
    "is not strongly identifiable.",
)
def check_two_layer_relu_bias(ctx: CheckContext) -> Outcome:
    """000: the two-layer ReLU FFN with last bias is not strongly identifiable."""
    return _two_layer_relu(ctx, True, False)


@_expert_claim(
    "pcr.ident.two-layer-relu-nobias", expert="ReLU(x W1 + b1) W2 (no last bias), width 1.",
    statement="ReLU(xW1+b1)W2 (no last bias) is strongly identifiable.",
    sources={S0: [171]},
    statement_latex=r"$\mathrm{ReLU}(x W_1 + b_1) W_2$ (no last bias) is strongly identifiable.",
)
def check_two_layer_relu_nobias(ctx: CheckContext) -> Outcome:
    """000: ReLU(xW1+b1)W2 without last bias is strongly identifiable -- per reading."""
    return _two_layer_relu(ctx, False, True)


@_expert_claim(
    "pcr.ident.two-layer-gelu",
    expert="GELU(x W1 + b1) W2 + b2 (linear layers with biases, as in 000's experiments), width 1; "
    "the variant without b2 is reported as further readings.",
    statement="the two-layer GELU FFN is strongly identifiable.",
    sources={S0: [165]},
)
def check_two_layer_gelu(ctx: CheckContext) -> Outcome:
    """000: the two-layer GELU FFN is strongly identifiable -- with and without last bias."""
    readings = _all_readings("two-layer-gelu-bias", True, "with b2")
    readings += _all_readings("two-layer-gelu-nobias", True, "no b2")
    readings += _curve_readings("two-layer-gelu-nobias", ("pcos-1-no-order0",), "no b2")
    readings += _width2(ctx, "gelu", False, True)
    readings.insert(0, _literal_primary(True, ["two-layer-gelu-bias"]))
    ids = _two_layer_identities(True)[:3] + _two_layer_identities(False)[:2]
    return _family_outcome(readings, ids)


if __name__ == "__main__":
    from moetheory.engine.script import run_as_script

    run_as_script()
