"""moetheory: check the mathematics of Mixture-of-Experts papers by machine.

Every claim of the catalogue is a registered check that returns a verdict with its
evidence: a proof certificate, a counterexample, or a calibrated statistical test.

The public names are imported when first used (:pep:`562`), so ``import moetheory`` and
the command line's start load no mathematics (NumPy, SymPy, SciPy) until a name that
needs it is used.

Examples
--------
>>> import moetheory
>>> moetheory.Verdict("refuted").is_exact
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each lazily re-exported public name and the module that defines it: adding a public
#: name is one line here (``__all__`` and ``dir()`` follow), plus its line in the
#: ``TYPE_CHECKING`` block below for type checkers.
_LAZY: dict[str, str] = {
    "CheckContext": "moetheory.engine.context",
    "Outcome": "moetheory.engine.verdicts",
    "Reading": "moetheory.engine.verdicts",
    "Verdict": "moetheory.engine.verdicts",
    "claim": "moetheory.engine.registry",
    "get_claim": "moetheory.engine.registry",
    "load_checks": "moetheory.engine.registry",
    "registered": "moetheory.engine.registry",
    "select_claims": "moetheory.engine.registry",
    "verify": "moetheory.engine.verification",
    # your own mathematics: a router's PDE, relations, a closed form by Monte Carlo
    "router_pde": "moetheory.symbolic.router_pde",
    "find_relations": "moetheory.symbolic.relations",
    "identifiable": "moetheory.symbolic.identifiable",
    "check_expectation": "moetheory.stats.expectation",
    "required_n": "moetheory.stats.expectation",
}

__all__ = sorted([*_LAZY, "__version__"])

if TYPE_CHECKING:  # the same names, eagerly, for type checkers and IDEs (``X as X``)
    from moetheory.engine.context import CheckContext as CheckContext
    from moetheory.engine.registry import claim as claim
    from moetheory.engine.registry import get_claim as get_claim
    from moetheory.engine.registry import load_checks as load_checks
    from moetheory.engine.registry import registered as registered
    from moetheory.engine.registry import select_claims as select_claims
    from moetheory.engine.verdicts import Outcome as Outcome
    from moetheory.engine.verdicts import Reading as Reading
    from moetheory.engine.verdicts import Verdict as Verdict
    from moetheory.engine.verification import verify as verify
    from moetheory.stats.expectation import check_expectation as check_expectation
    from moetheory.stats.expectation import required_n as required_n
    from moetheory.symbolic.identifiable import identifiable as identifiable
    from moetheory.symbolic.relations import find_relations as find_relations
    from moetheory.symbolic.router_pde import router_pde as router_pde

def __getattr__(name: str) -> Any:
    """Import a public name on first use (:data:`_LAZY`) and cache it in the module."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'moetheory' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
