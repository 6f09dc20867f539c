"""What the bad-input and hostile-input tests share: an earlier run's report, and a check
that leaves a file behind when it runs (so a test can tell that no claim ran)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moetheory import CheckContext, Outcome, Verdict

__all__ = ["OLD_REPORT", "marker_check"]

#: The text of a report left by an earlier run, which a refused run must not touch.
OLD_REPORT = '{"old": "report from an earlier run"}\n'


def marker_check(path: Path) -> Any:
    """A check that appends its claim ID to ``path`` each time it runs."""

    def check(ctx: CheckContext) -> Outcome:
        with open(path, "a") as fh:
            fh.write(ctx.claim_id + "\n")
        return Outcome(Verdict.PROVED, "ran")

    return check
