"""The README's commands timed beside an older revision (issues 10 and 45).

Three commands, each run by this interpreter on the package of a tree (first on
``PYTHONPATH``, the tree as working directory):

* ``tests`` -- the README's test command: its pytest step (the part after the last ``&&``,
  with the virtual environment's ``python`` replaced by this interpreter), read from that
  tree's own README, so an older revision runs the test command it documented;
* ``quick`` and ``full`` -- ``moetheory verify --profile quick|full --jobs J``.

With ``--old REV`` the tree of git revision ``REV`` (``git archive`` into a temporary
directory) is timed too, old and new alternately ``--repeats`` times so that both meet the
same machine. Prints each run's wall-clock and CPU seconds (every process of the command
included) and exit status, then a Markdown table of the medians, the ratios new / old and
each command's target on 2 cores (:data:`TARGETS`), and, for the profiles, the claims whose
reports differ apart from their ``seconds``. Exit status 1 when a median misses its target or
a run fails. The machine should be otherwise idle: wall-clock seconds count everything else
it runs.

Run: ``python benchmarks/bench_commands.py [--command tests --command quick ...] [--old REV]
[--repeats 1] [--jobs 2]`` (default: all three commands; ``full`` alone takes 10-15 minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _previous import extract

#: Each command's budget in wall-clock seconds on 2 cores (issue 10: quick; issue 45: the
#: README's test command and the full profile).
TARGETS: dict[str, float] = {"tests": 600.0, "quick": 90.0, "full": 600.0}
ROOT = Path(__file__).resolve().parents[1]


def pytest_argv(shell: str) -> list[str]:
    """The pytest step of a shell command line (after its last ``&&``), run by this interpreter.

    Parameters
    ----------
    shell : str
        A command line ending in ``PYTHON -m pytest [OPTION ...]``, e.g. the README's test
        command or the slow tier's line of ``.ci/run``.

    Returns
    -------
    list of str
        ``[sys.executable, "-m", "pytest", OPTION, ...]``.

    Raises
    ------
    ValueError
        When ``shell`` does not end in ``python -m pytest`` and its options.

    Examples
    --------
    >>> pytest_argv("pip install -e . && .venv/bin/python -m pytest -m slow")[1:]
    ['-m', 'pytest', '-m', 'slow']
    """
    step = shlex.split(shell.split("&&")[-1])
    if len(step) < 3 or not step[0].endswith("python") or step[1:3] != ["-m", "pytest"]:
        raise ValueError(f"shell: {shell!r} does not end in 'python -m pytest [OPTION ...]'")
    return [sys.executable, *step[1:]]


def readme_test_argv(tree: Path) -> list[str]:
    """The pytest step (:func:`pytest_argv`) of the README's test command in ``tree``.

    Parameters
    ----------
    tree : Path
        A checkout of the project: the second ``bash`` block of its ``README.md`` is the
        test command.

    Returns
    -------
    list of str
        ``[sys.executable, "-m", "pytest", ...]``: the options the README gives pytest.

    Raises
    ------
    ValueError
        When the README has no second ``bash`` block or it does not end in
        ``python -m pytest``.

    Examples
    --------
    >>> readme_test_argv(ROOT)[1:3]
    ['-m', 'pytest']
    """
    text = (tree / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)\n```", text, re.S)
    if len(blocks) < 2:
        raise ValueError(f"tree: {tree / 'README.md'} has no test command (second bash block)")
    return pytest_argv(blocks[1])


def command(name: str, tree: Path, jobs: int, report: Path) -> list[str]:
    """The argv of command ``name`` (a key of :data:`TARGETS`) for ``tree``.

    Examples
    --------
    >>> command("quick", ROOT, 2, Path("r.json"))[3:]
    ['verify', '--profile', 'quick', '--jobs', '2', '--no-progress', '--json', 'r.json']
    """
    if name == "tests":
        return readme_test_argv(tree)
    return [sys.executable, "-m", "moetheory", "verify", "--profile", name,
            "--jobs", str(jobs), "--no-progress", "--json", str(report)]


def timed(argv: list[str], tree: Path) -> tuple[float, float, int]:
    """Wall-clock seconds, CPU seconds (its processes included) and exit status of ``argv``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    status = subprocess.run(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, status


def differing(a: Path, b: Path) -> list[str]:
    """Claims whose entries differ between two reports, apart from ``seconds``."""

    def entries(path: Path) -> dict[str, dict]:
        claims = json.loads(path.read_text(encoding="utf-8"))["claims"]
        return {c["id"]: {k: v for k, v in c.items() if k != "seconds"} for c in claims}

    old, new = entries(a), entries(b)
    return sorted(i for i in old.keys() | new.keys() if old.get(i) != new.get(i))


def table(medians: dict[tuple[str, str], tuple[float, float]], old: str | None) -> list[str]:
    """The Markdown table of the medians (``(command, "new"|"old") -> (wall, cpu)``)."""
    head = "| command | new: wall s | new: CPU s | target wall s |"
    if old:
        head += f" old ({old}): wall s | old: CPU s | new / old wall | new / old CPU |"
    rows = [head, "|" + " --- |" * head.count(" |")]
    for name in TARGETS:
        if (name, "new") not in medians:
            continue
        wall, cpu = medians[name, "new"]
        row = f"| {name} | {wall:.0f} | {cpu:.0f} | {TARGETS[name]:.0f} |"
        if old:
            o_wall, o_cpu = medians[name, "old"]
            row += f" {o_wall:.0f} | {o_cpu:.0f} | {wall / o_wall:.2f} | {cpu / o_cpu:.2f} |"
        rows.append(row)
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--command", action="append", choices=sorted(TARGETS),
                    help="a command to time (repeatable; default: all three)")
    ap.add_argument("--old", help="git revision to time beside the current tree")
    ap.add_argument("--repeats", type=int, default=1, help="runs of each tree (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="checks at once (default 2)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.jobs < 1:
        ap.error(f"--jobs must be at least 1, got {args.jobs}")
    names = [n for n in TARGETS if n in (args.command or TARGETS)]
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-commands-") as tmp:
        trees = {"new": ROOT}
        if args.old:
            trees["old"] = extract(args.old, Path(tmp) / "old")
        for tree in trees.values():
            readme_test_argv(tree)  # before any run: each tree documents a test command
        for name in names:
            reports = {side: Path(tmp) / f"{name}-{side}.json" for side in trees}
            for _ in range(args.repeats):
                for side in ("old", "new"):
                    if side not in trees:
                        continue
                    argv_ = command(name, trees[side], args.jobs, reports[side])
                    wall, cpu, status = timed(argv_, trees[side])
                    failed |= status != 0  # a failing test, a check in error
                    times.setdefault((name, side), []).append((wall, cpu))
                    print(f"{name} {side}: {wall:7.1f} s wall, {cpu:7.1f} s CPU, exit {status}",
                          flush=True)
            if args.old and name != "tests":
                changed = differing(reports["old"], reports["new"])
                print(f"{name}: claims whose reports differ apart from seconds: {len(changed)}"
                      + (f" ({', '.join(changed)})" if changed else ""))
    medians = {key: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
               for key, t in times.items()}
    print("\n".join(table(medians, args.old)))
    missed = [n for n in names if medians[n, "new"][0] > TARGETS[n]]
    print(f"targets on 2 cores: {'missed by ' + ', '.join(missed) if missed else 'met'}")
    return int(bool(missed) or failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
