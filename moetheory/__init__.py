"""moetheory: check the mathematics of Mixture-of-Experts papers by machine.

Every claim of the catalogue is a registered check that returns a verdict with its
evidence: a proof certificate, a counterexample, or a calibrated statistical test.

Examples
--------
>>> import moetheory
>>> moetheory.Verdict("refuted").is_exact
True
"""

from moetheory.engine.context import CheckContext
from moetheory.engine.registry import claim, get_claim, load_checks, registered, select_claims
from moetheory.engine.verdicts import Outcome, Reading, Verdict
from moetheory.engine.verification import verify

__version__ = "0.1.0"

__all__ = [
    "CheckContext",
    "Outcome",
    "Reading",
    "Verdict",
    "__version__",
    "claim",
    "get_claim",
    "load_checks",
    "registered",
    "select_claims",
    "verify",
]
