"""Superseded by ``benchmarks/calibrate.py`` (every statistical check, both ways).

Kept only so that ``.ci/run`` keeps working until it calls ``calibrate.py --budget``
directly; the arguments are passed through unchanged.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibrate import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
