"""Your claims in your tests: assertions on verdicts, and a pytest plugin.

- :func:`assert_verdict` fails (an :class:`AssertionError`) unless an outcome, a result of
  the public functions, a claim or a whole :func:`moetheory.verify` report is proved or
  supported (or what you expect), with the summary, counterexample and evidence in the
  message.
- :func:`run_claim` runs a registered claim here, with the context ``moetheory verify``
  would give it.
- :class:`TemporaryClaims` registers claims for one test and removes them afterwards.
- The pytest plugin (``moetheory.testing._plugin``, installed with the package through the
  ``pytest11`` entry point) makes every ``@claim`` check of a collected test file a test item
  and gives the fixtures ``moetheory_ctx`` and ``moetheory_claims``; options
  ``--moetheory-profile``, ``--moetheory-seed`` and ``--moetheory-inconclusive``.

Examples
--------
>>> from moetheory import Outcome, Verdict
>>> _ = assert_verdict(Outcome(Verdict.SUPPORTED, "within tolerance"))
"""

from moetheory.testing import _assert
from moetheory.testing._assert import *  # noqa: F403  (the public face is the whole module)

__all__ = _assert.__all__
