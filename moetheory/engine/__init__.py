"""The engine: claim catalogue and registry, check runner, verdicts, reports and CLI.

The mathematics lives in the other subpackages of :mod:`moetheory`; this package only runs
checks and reports what they decide.
"""
