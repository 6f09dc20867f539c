"""Write the figures of ``moetheory reproduce`` into docs/_static/figures/<target>/.

Usage: ``python docs/make_figures.py [TARGET ...] [--profile quick|full] [--seed N]``
(default: every target of :data:`moetheory.docs_gen.FIGURE_CLAIMS`, full profile, seed 0).
Only the PNG images are kept (the data files and SVGs stay out of the repository); the full
profile runs at paper scale and can take long. Afterwards run ``python docs/generate.py`` so
the claim pages show the new figures.
"""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from moetheory.docs_gen import FIGURE_CLAIMS
from moetheory.reproduce import reproduce

FIGURES = Path(__file__).resolve().parent / "_static" / "figures"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help=f"any of {', '.join(FIGURE_CLAIMS)}")
    parser.add_argument("--profile", choices=["quick", "full"], default="full")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    unknown = [t for t in args.targets if t not in FIGURE_CLAIMS]
    if unknown:
        parser.error(f"unknown target(s) {unknown}; choose from {list(FIGURE_CLAIMS)}")
    for target in args.targets or list(FIGURE_CLAIMS):
        with tempfile.TemporaryDirectory() as tmp:
            paths = reproduce(
                target, tmp, seed=args.seed, profile=args.profile, replicates=None, progress=True
            )
            out = FIGURES / target
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            for path in sorted(p for p in paths if p.suffix == ".png"):
                shutil.copyfile(path, out / path.name)
                print(f"wrote {out / path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
