"""Sphinx configuration of the moetheory documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html``. MathJax is served from a local
copy (no network): the Debian package ``libjs-mathjax`` (``/usr/share/javascript/mathjax``),
or the folder named by the environment variable ``MOETHEORY_MATHJAX_DIR`` (MathJax 2.7).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import moetheory

project = "moetheory"
author = "the moetheory developers"
copyright = "2026, the moetheory developers"
version = release = moetheory.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "numpydoc",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_static", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
myst_update_mathjax = False  # MathJax 2 (below) is configured for the delimiters Sphinx writes
myst_heading_slug_func = "docutils"  # the same slugs as moetheory.docs_gen.claim_anchor

autodoc_default_options = {"members": True, "undoc-members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

html_theme = "alabaster"
html_theme_options = {"page_width": "1240px", "sidebar_width": "250px"}
html_static_path = ["_static"]
html_css_files = ["moetheory.css"]
html_title = f"moetheory {release}"

# -- MathJax, served locally --------------------------------------------------------------

_MATHJAX_CANDIDATES = [
    os.environ.get("MOETHEORY_MATHJAX_DIR", ""),
    "/usr/share/javascript/mathjax",
    "/usr/share/nodejs/mathjax",
]
_MATHJAX_PARTS = [
    "MathJax.js",
    "config/TeX-AMS_CHTML.js",
    "extensions",
    "jax/input/TeX",
    "jax/output/CommonHTML",
    "jax/element",
    "localization/en",
    "fonts/HTML-CSS/TeX/woff",
]


def _mathjax_source() -> Path:
    for candidate in _MATHJAX_CANDIDATES:
        if candidate and (Path(candidate) / "MathJax.js").is_file():
            return Path(candidate)
    raise RuntimeError(
        "no local MathJax 2.7 found: install the Debian package libjs-mathjax "
        "(apt-get install libjs-mathjax) or set MOETHEORY_MATHJAX_DIR to a MathJax 2.7 folder"
    )


MATHJAX_SOURCE = _mathjax_source()
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS_CHTML"
mathjax2_config = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processRefs": False,
        "processEnvironments": False,
    },
    "messageStyle": "none",
}


def _copy_mathjax(app) -> None:  # type: ignore[no-untyped-def]
    if app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    for part in _MATHJAX_PARTS:
        src = MATHJAX_SOURCE / part
        dst = target / part
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        elif src.is_file():
            shutil.copyfile(src, dst)


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
    app.connect("builder-inited", _copy_mathjax)
    app.connect("autodoc-process-docstring", _module_sections_to_rubrics, priority=100)
