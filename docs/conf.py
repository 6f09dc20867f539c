"""Sphinx configuration of the moetheory documentation.

Build, from the repository root, after ``pip install -e '.[docs]'``::

    sphinx-build -W -b html docs docs/_build/html

* The claim pages (``docs/claims/``) and the examples with their output (``docs/examples/``)
  are generated at build time from a verification run
  (quick profile, seed 0, :mod:`moetheory.docs`), so they always match the code and no
  machine-dependent digit is committed. Set ``MOETHEORY_DOCS_REPORT=report.json`` to build
  them from a stored report instead of verifying anew.
* The code blocks of ``{snippet}`` and ``{snippet-command}`` (``docs/own-paper.md``) run at
  build time and show their output (``docs/_ext/snippets.py``); one that fails stops the build.
* Three small extensions shape every page (``docs/_ext/``): ``claimlinks`` links each claim
  ID set as code to its claim (from the report the claim pages were made from),
  ``tablescroll`` lets a wide table scroll inside its column, and ``signatures`` keeps the
  API signatures parseable (a dataclass field's ``<factory>`` default shown as ``...``).
  ``_templates/layout.html`` links the previous and next page at the foot of every page.
* MathJax 3.2.2 comes from the pinned PyPI package ``sphinx-mathjax-offline`` (no network,
  no system package).
* Intersphinx links to Python, NumPy, SciPy, SymPy and Hypothesis when their inventories can
  be had: from ``docs/_intersphinx/<name>.inv`` if present, else from the web when it is
  reachable. Offline, the links are simply not made; the build never fails for it
  (``MOETHEORY_DOCS_OFFLINE=1`` forces offline).
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import moetheory

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # proofs_checks, examples
sys.path.insert(0, str(DOCS / "_ext"))  # snippets: code run at build time (own-paper.md)

project = "moetheory"
author = "the moetheory developers"
copyright = "2026, the moetheory developers"
version = release = moetheory.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx-mathjax-offline",
    "snippets",
    "signatures",
    "claimlinks",
    "tablescroll",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = [
    "_build", "_static", "_templates", "seeds", "examples/*/*", "Thumbs.db", ".DS_Store",
]

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
myst_heading_slug_func = "docutils"  # the same slugs as moetheory.docs.claim_anchor

# MathJax 3 typesets only what Sphinx marked as maths (class "math"): a stray "$" in prose
# or a seed quote is never mistaken for a formula.
mathjax3_config = {
    # ui/safe: no javascript:/data: link, class, id or style from the TeX of a report
    # (moetheory.engine.mathtext.safe_tex already writes such commands out as text)
    "loader": {"load": ["ui/safe"]},
    "tex": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]]},
    "options": {
        "ignoreHtmlClass": "tex2jax_ignore|mathjax_ignore|document",
        "processHtmlClass": "tex2jax_process|mathjax_process|math|output_area",
        "safeOptions": {
            "allow": {"URLs": "safe", "classes": "safe", "cssIDs": "safe", "styles": "safe"},
            "safeProtocols": {"http": True, "https": True, "file": False, "javascript": False,
                              "data": False},
        },
    },
}
# Run after that configuration on every page with maths: an inline formula wider than its
# line is set on a line of its own that scrolls (MathJax 3 cannot break one).
mathjax_config_path = "_ext/widemath.js"
myst_update_mathjax = False

autosummary_generate = True
autosummary_ignore_module_all = False
autodoc_default_options: dict[str, bool] = {}
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "alabaster"
html_theme_options = {"page_width": "1240px", "sidebar_width": "250px"}
html_static_path = ["_static"]
html_css_files = ["moetheory.css"]
html_title = f"moetheory {release}"

# -- intersphinx, never a reason for the build to fail ---------------------------------

_INVENTORIES = {
    "python": "https://docs.python.org/3",
    "numpy": "https://numpy.org/doc/stable",
    "scipy": "https://docs.scipy.org/doc/scipy",
    "sympy": "https://docs.sympy.org/latest",
    "hypothesis": "https://hypothesis.readthedocs.io/en/latest",
}


def _online(host: str = "docs.python.org") -> bool:
    if os.environ.get("MOETHEORY_DOCS_OFFLINE"):
        return False
    try:
        socket.create_connection((host, 443), timeout=2).close()
    except OSError:
        return False
    return True


def _intersphinx() -> dict[str, tuple[str, str | None]]:
    online = None
    mapping: dict[str, tuple[str, str | None]] = {}
    for name, url in _INVENTORIES.items():
        local = DOCS / "_intersphinx" / f"{name}.inv"
        if local.is_file():
            mapping[name] = (url, str(local))
            continue
        if online is None:
            online = _online()
        if online:
            mapping[name] = (url, None)
    return mapping


intersphinx_mapping = _intersphinx()
intersphinx_timeout = 5

# -- the claim pages, generated at build time -------------------------------------------


def _generate_pages(app) -> None:  # type: ignore[no-untyped-def]
    from moetheory.docs import build_examples, build_pages

    import claimlinks

    claimlinks.set_claims(build_pages(DOCS, os.environ.get("MOETHEORY_DOCS_REPORT") or None))
    build_examples(DOCS)


def _module_sections_to_rubrics(app, what, name, obj, options, lines) -> None:  # type: ignore[no-untyped-def]
    """Module docstrings' numpydoc sections ("Examples" + dashes) become rubrics.

    As real sections, several modules' "Examples" on one page would clash as duplicate IDs.
    """
    if what != "module":
        return
    out: list[str] = []
    i = 0
    while i < len(lines):
        title = lines[i].strip()
        under = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if title and len(under) >= len(title) and set(under) <= set("-=~"):
            out += [f".. rubric:: {title}", ""]
            i += 2
            continue
        out.append(lines[i])
        i += 1
    lines[:] = out


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("builder-inited", _generate_pages)
    app.connect("autodoc-process-docstring", _module_sections_to_rubrics, priority=100)
