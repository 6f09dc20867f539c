"""Write the figures of ``moetheory reproduce`` into docs/_static/figures/<target>/.

Usage: ``python docs/make_figures.py [TARGET ...] [--profile quick|full] [--seed N]
[--replicates R]`` (default: every target of :data:`moetheory.docs.FIGURE_CLAIMS`, full
profile, seed 0). Only the PNG images are kept (the data files and SVGs stay out of the
repository), with a ``figures.json`` beside them recording the run (profile, seed, replicate
count, command) that the figure captions state. The full profile runs at paper scale and can
take long. The claim pages pick the figures up at the next documentation build.
"""

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from moetheory.docs import FIGURE_CLAIMS
from moetheory.engine.reproduce import reproduce

FIGURES = Path(__file__).resolve().parent / "_static" / "figures"


def replicate_count(target: str, profile: str, replicates: int | None) -> int:
    """The number of replicates ``moetheory reproduce TARGET`` runs under ``profile``."""
    if replicates is not None:
        return replicates
    if target == "rates":
        from moetheory.estimation.experiment import rates_design

        return rates_design(profile, None).replicates
    return 100 if profile == "full" else 10  # moetheory.continual.figures, both targets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help=f"any of {', '.join(FIGURE_CLAIMS)}")
    parser.add_argument("--profile", choices=["quick", "full"], default="full")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--replicates", type=int, default=None)
    args = parser.parse_args(argv)
    unknown = [t for t in args.targets if t not in FIGURE_CLAIMS]
    if unknown:
        parser.error(f"unknown target(s) {unknown}; choose from {list(FIGURE_CLAIMS)}")
    for target in args.targets or list(FIGURE_CLAIMS):
        with tempfile.TemporaryDirectory() as tmp:
            paths = reproduce(
                target, tmp, seed=args.seed, profile=args.profile,
                replicates=args.replicates, progress=True,
            )
            out = FIGURES / target
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            for path in sorted(p for p in paths if p.suffix == ".png"):
                shutil.copyfile(path, out / path.name)
                print(f"wrote {out / path.name}")
            command = f"moetheory reproduce {target} --profile {args.profile} --seed {args.seed}"
            if args.replicates is not None:
                command += f" --replicates {args.replicates}"
            meta = {
                "target": target,
                "profile": args.profile,
                "seed": args.seed,
                "replicates": replicate_count(target, args.profile, args.replicates),
                "command": command,
            }
            (out / "figures.json").write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
