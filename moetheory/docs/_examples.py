"""The example scripts, run when the site is built and shown with their output."""

from __future__ import annotations

import ast
import concurrent.futures
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from moetheory.docs._markup import _code, _fence, _strip_paths, _text

__all__ = ["EXAMPLES_DIR", "build_examples", "render_example_page"]

#: The example scripts shown on the site, with their output.
EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"


def _run_example(script: Path, cwd: Path, timeout: float) -> tuple[int, str]:
    cwd.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "MPLBACKEND": "Agg", "COLUMNS": "90"},
    )
    return proc.returncode, proc.stdout + (proc.stderr if proc.returncode else "")


def render_example_page(script: Path, output: str, images: Sequence[str] = ()) -> str:
    """The page of one example: what it shows, its source, the output it printed.

    Parameters
    ----------
    script : path
        The example script (its docstring's first paragraph introduces the page).
    output : str
        What the script printed when the site was built.
    images : sequence of str
        Images it wrote, relative to the page.

    Returns
    -------
    str
        MyST page with a ``literalinclude`` of the source and the output as text.

    See Also
    --------
    build_examples : runs every example and writes these pages.

    Notes
    -----
    The output shown is the run's, with absolute paths of the build folder removed, so the
    page is the same wherever the site is built.

    Examples
    --------
    >>> page = render_example_page(EXAMPLES_DIR / "verify_one_claim.py", "ok")
    >>> page.splitlines()[0]
    '# `verify_one_claim.py`'
    """
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    intro = doc.split("\n\n")[0].replace("\n", " ")
    text = _strip_paths(output.rstrip()) or "(no output)"
    fence = _fence(text)
    lines = [
        f"# {_code(script.name)}",
        "",
        _text(intro),
        "",
        f"Run it with {_code(f'python examples/{script.name}')}. Source:",
        "",
        f"```{{literalinclude}} ../../examples/{script.name}",
        ":language: python",
        "```",
        "",
        "Output, from the run made when this site was built:",
        "",
        f"{fence}text",
        *text.splitlines(),
        fence,
        "",
    ]
    for image in images:
        lines += [f"```{{figure}} {image}", f":alt: {Path(image).stem}", "",
                  f"Written by {_code(script.name)}: {_text(Path(image).stem)}.", "```", ""]
    return "\n".join(lines).rstrip() + "\n"


def build_examples(docs_dir: str | Path, jobs: int = 2, timeout: float = 600) -> list[str]:
    """Run every example and write its page to ``<docs_dir>/examples/``; return the names.

    Parameters
    ----------
    docs_dir : path
        The Sphinx source folder; ``examples/`` inside it is replaced.
    jobs : int
        Examples run at the same time.
    timeout : float
        Seconds one example may take.

    Returns
    -------
    list of str
        The page names written (``examples/<stem>.md``), sorted.

    Raises
    ------
    RuntimeError
        If an example fails: the site never shows an example that does not run.

    See Also
    --------
    render_example_page : one example's page.

    Notes
    -----
    The examples run in parallel in fresh interpreters with the ``Agg`` Matplotlib
    backend, each in its own folder, so the images they write land beside their page.

    Examples
    --------
    The scripts it runs:

    >>> "verify_one_claim" in [p.stem for p in EXAMPLES_DIR.glob("*.py")]
    True
    """
    out = Path(docs_dir) / "examples"
    shutil.rmtree(out, ignore_errors=True)
    scripts = sorted(EXAMPLES_DIR.glob("*.py"))

    def run(script: Path) -> tuple[Path, int, str]:
        return (script, *_run_example(script, out / script.stem, timeout))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(run, scripts))
    names = []
    for script, code, output in results:
        if code != 0:
            raise RuntimeError(f"example {script.name} failed (exit {code}):\n{output[-3000:]}")
        folder = out / script.stem
        output = output.replace(str(folder.resolve()) + os.sep, "").replace(
            str(folder) + os.sep, ""
        )
        images = sorted(f"{script.stem}/{p.name}" for p in folder.glob("*.png"))
        for extra in folder.iterdir():
            if extra.suffix != ".png":
                if extra.is_dir():
                    shutil.rmtree(extra)
                else:
                    extra.unlink()
        (out / f"{script.stem}.md").write_text(
            render_example_page(script, output, images), encoding="utf-8"
        )
        names.append(script.stem)
    return names
