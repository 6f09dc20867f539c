"""Preview the claim pages: verify every claim (quick profile, seed 0), write docs/claims.

The Sphinx build generates these pages itself (they are not committed); this script is for
looking at the MyST source. Usage: ``python docs/generate.py [--report r.json] [--check]``.
"""

import sys
from pathlib import Path

from moetheory.docs import main

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
