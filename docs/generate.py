"""Regenerate the claim pages: verify every claim (quick profile, seed 0), write docs/claims.

Usage: ``python docs/generate.py [--check]`` from anywhere; ``--check`` only lists stale pages
(exit status 1 when any is stale).
"""

import sys
from pathlib import Path

from moetheory.docs_gen import main

DOCS = Path(__file__).resolve().parent

if __name__ == "__main__":
    sys.exit(
        main(
            [
                "--out",
                str(DOCS / "claims"),
                "--figures",
                str(DOCS / "_static" / "figures"),
                *sys.argv[1:],
            ]
        )
    )
