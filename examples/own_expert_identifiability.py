"""Check your own expert function for strong identifiability, under every reading.

Definition 1 (strong identifiability) is not stated in the seeds; moetheory checks several
readings of it (:data:`moetheory.symbolic.identifiability.READINGS`). Here: a softplus expert
h(x, (a, b)) = log(1 + exp(a x + b)), and h(x, (a, b)) = a exp(b x), which is linear in a and
so fails every reading that contains the second derivative in a (∂²h/∂a² = 0).

Usage: ``python examples/own_expert_identifiability.py``
"""

import sys

import sympy as sp

from moetheory.symbolic.identifiability import PRIMARY_READING, READINGS, decide

a, b, x = sp.symbols("a b x", real=True)

EXPERTS = {
    "softplus": sp.log(1 + sp.exp(a * x + b)),
    "a*exp(b*x)": a * sp.exp(b * x),
}


def main() -> int:
    for name, h in EXPERTS.items():
        print(f"{name}: h(x, (a, b)) = {h}")
        for reading in READINGS:
            decision = decide(h, reading, x=x, params=[a, b])
            mark = " (primary)" if reading == PRIMARY_READING else ""
            print(f"  {reading:<20} {decision.verdict.value:<9} {decision.summary}{mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
