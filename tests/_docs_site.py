"""The documentation site the docs tests read: one verification run and one Sphinx build
per test process, shared by ``test_docs.py`` and ``test_docs_scan.py``.

Two environment variables let a developer scan a site already at hand (they are never set in
CI, where both are made fresh):

* ``MOETHEORY_TEST_DOCS_REPORT`` -- a stored report (``moetheory verify --json``) used
  instead of verifying anew;
* ``MOETHEORY_TEST_DOCS_SITE`` -- a built site (``sphinx-build -b html docs SITE``, from
  that report) used instead of building anew.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: The fixtures of the docs tests that make the site (a verification run, a Sphinx build:
#: minutes); a test that needs one of them is in the slow tier (``tests/conftest.py``).
SITE_FIXTURES = frozenset({"report_path", "built_html", "site"})


@functools.cache
def _workdir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="moetheory-docs-test-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


@functools.cache
def report_path() -> Path:
    """A verification run with the settings of the documentation build, as a JSON file.

    It runs ``moetheory.verify`` in a fresh interpreter, so claims that other tests
    register in this process never leak into the pages.
    """
    stored = os.environ.get("MOETHEORY_TEST_DOCS_REPORT")
    if stored:
        return Path(stored)
    path = _workdir() / "report.json"
    code = (
        "import json, sys, moetheory\n"
        "from moetheory import docs as g\n"
        "r = moetheory.verify(profile=g.GENERATE_PROFILE, seed=g.GENERATE_SEED,"
        " jobs=g.GENERATE_JOBS)\n"
        "open(sys.argv[1], 'w', encoding='utf-8').write(json.dumps(r))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=3000
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return path


def missing_docs_packages() -> list[str]:
    """The packages of ``.[docs]`` the Sphinx build needs that are not installed."""
    return [
        m for m in ("sphinx", "myst_parser", "numpydoc", "sphinx-mathjax-offline")
        if importlib.util.find_spec(m) is None
    ]


@functools.cache
def built_site() -> Path:
    """The site built with ``sphinx-build -W`` from :func:`report_path`, offline."""
    stored = os.environ.get("MOETHEORY_TEST_DOCS_SITE")
    if stored:
        return Path(stored)
    out = _workdir() / "html"
    env = {**os.environ, "MOETHEORY_DOCS_REPORT": str(report_path()),
           "MOETHEORY_DOCS_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=1200,
        env=env,
    )
    assert proc.returncode == 0, f"sphinx-build -W failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def built_site_or_skip() -> Path:
    """:func:`built_site`, or skip the calling test when a docs package is missing."""
    missing = missing_docs_packages()
    if missing:
        pytest.skip(f"{missing} not installed: pip install -e '.[docs]'")
    return built_site()
