"""Code blocks that run when the site is built, shown with what they gave.

Two MyST directives:

``{snippet}``
    Python code, run in the page's namespace (shared by the page's snippets, in order, like
    the cells of a notebook) with the page's working folder as the current directory. The
    page shows the code, then what it printed, then its last expression displayed as
    Jupyter displays it: ``_repr_markdown_`` (parsed as MyST, so its maths is typeset),
    a SymPy expression typeset, anything else as its ``repr``. Options:

    ``:file: NAME``
        Do not run: write the code to ``NAME`` in the working folder (for a command
        snippet to use) and show it under that name.
    ``:requires: MODULE``
        Run only when ``MODULE`` can be imported; otherwise show the code with a note.
    ``:max-lines: N``
        Most non-blank lines of code (default 10): the chapter promises short snippets.

``{snippet-command}``
    One command line (``pytest``, ``moetheory`` or ``python`` then arguments), run in the
    working folder with this interpreter; the page shows ``$ command`` and its output.
    ``:returncode: N`` is the exit status expected (default 0). The lines of pytest's
    session header that name this machine (platform, rootdir, plugins) are left out.

Each snippet is a ``div.snippet`` marked ``snippet-ran``, ``snippet-file``,
``snippet-skipped`` or ``snippet-command``; a displayed result with a ``.verdict`` is marked
``snippet-verdict-<verdict>``, so a test can read what the page shows.

A snippet that raises, a command that exits otherwise than expected, or a snippet longer
than allowed stops the build with :class:`SnippetError`, naming the page and line: the site
never shows code that does not run. Pages with snippets are read again at every build.
Claims a page registers are unregistered, and modules it imports from its working folder
forgotten, once the page is read.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import os
import pprint
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.errors import SphinxError
from sphinx.util.docutils import SphinxDirective

__all__ = ["SnippetError", "setup"]

#: Most non-blank lines of a snippet, unless ``:max-lines:`` says otherwise.
MAX_LINES = 10
#: Seconds one command may take.
COMMAND_TIMEOUT = 900
#: pytest's session header lines that name this machine.
_HEADER = re.compile(
    r"^(platform |rootdir: |configfile: |plugins: |cachedir: |hypothesis profile )"
)
_PROGRAMS = {"pytest": ["-m", "pytest"], "moetheory": ["-m", "moetheory"], "python": []}


class SnippetError(SphinxError):
    """A snippet of the documentation failed: the build stops."""

    category = "Snippet failed"


class _Page:
    """One page's namespace, working folder and what it registered."""

    def __init__(self, docname: str) -> None:
        self.namespace: dict[str, Any] = {"__name__": f"snippets:{docname}"}
        self.folder = Path(tempfile.mkdtemp(prefix="moetheory-snippets-"))
        self.claims_before = _claim_ids()
        self.modules_before = set(sys.modules)


_PAGES: dict[str, _Page] = {}


def _claim_ids() -> set[str]:
    from moetheory.engine.registry import registered

    return {c.id for c in registered()}


def _page(directive: SphinxDirective) -> _Page:
    env = directive.env
    docname = env.docname
    if docname not in _PAGES:
        _PAGES[docname] = _Page(docname)
    if not hasattr(env, "moetheory_snippet_docs"):
        env.moetheory_snippet_docs = set()  # type: ignore[attr-defined]
    env.moetheory_snippet_docs.add(docname)  # type: ignore[attr-defined]
    return _PAGES[docname]


def _where(directive: SphinxDirective) -> str:
    return f"{directive.env.doc2path(directive.env.docname)}:{directive.lineno}"


def _code_block(code: str, language: str, caption: str | None = None) -> nodes.Element:
    block = nodes.literal_block(code, code, language=language)
    if caption is None:
        return block
    container = nodes.container("", literal_block=True, classes=["literal-block-wrapper"])
    container += nodes.caption(caption, "", nodes.Text(caption))
    container += block
    return container


def _output(classes: list[str]) -> nodes.container:
    return nodes.container("", classes=["snippet-output", *classes])


def _snippet(how: str, *children: nodes.Node) -> nodes.container:
    """A snippet's code and output, marked ``snippet-<how>`` (ran, file, skipped, command)."""
    return nodes.container("", *children, classes=["snippet", f"snippet-{how}"])


def _strip(text: str, folder: Path) -> str:
    """Output without the working folder's or the interpreter's path."""
    for path in (str(folder.resolve()), str(folder)):
        text = text.replace(path + os.sep, "").replace(path, ".")
    return text.replace(sys.executable, "python").rstrip()


class Snippet(SphinxDirective):
    """``{snippet}``: Python code run at build time, shown with its output."""

    has_content = True
    option_spec = {  # noqa: RUF012 (docutils' interface)
        "file": directives.unchanged_required,
        "requires": directives.unchanged_required,
        "max-lines": directives.positive_int,
    }

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        lines = [line for line in self.content if line.strip()]
        most = self.options.get("max-lines", MAX_LINES)
        if len(lines) > most:
            raise SnippetError(f"{_where(self)}: {len(lines)} lines of code, at most {most}")
        page = _page(self)
        name = self.options.get("file")
        if name is not None:
            (page.folder / name).write_text(code + "\n", encoding="utf-8")
            return [_snippet("file", _code_block(code, "python", caption=name))]
        shown = _snippet("ran", _code_block(code, "python"))
        module = self.options.get("requires")
        if module is not None and not _importable(module):
            shown["classes"] = ["snippet", "snippet-skipped"]
            note = _output([])
            text = f"Not run in this build: {module} cannot be imported."
            note += nodes.paragraph(text, text)
            shown += note
            return [shown]
        printed, value = self._execute(code, page)
        if printed.strip():
            out = _output(["snippet-printed"])
            out += nodes.literal_block(printed, printed, language="text")
            shown += out
        if value is not None:
            shown += self._display(value)
        return [shown]

    def _execute(self, code: str, page: _Page) -> tuple[str, Any]:
        try:
            tree = ast.parse(code, filename=_where(self))
        except SyntaxError as exc:
            raise SnippetError(f"{_where(self)}: {exc}") from None
        last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        body = ast.Module(body=tree.body[:-1] if last else tree.body, type_ignores=[])
        buffer = io.StringIO()
        here = os.getcwd()
        value = None
        try:
            os.chdir(page.folder)
            sys.path.insert(0, str(page.folder))
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
                exec(compile(body, _where(self), "exec"), page.namespace)
                if last is not None:
                    expr = ast.Expression(body=last.value)
                    value = eval(compile(expr, _where(self), "eval"), page.namespace)
        except Exception:
            raise SnippetError(
                f"{_where(self)}: the snippet raised\n{traceback.format_exc(limit=-8)}"
            ) from None
        finally:
            os.chdir(here)
            with contextlib.suppress(ValueError):
                sys.path.remove(str(page.folder))
        return _strip(buffer.getvalue(), page.folder), value

    def _display(self, value: Any) -> nodes.Node:
        markdown = getattr(value, "_repr_markdown_", None)
        if callable(markdown) and not isinstance(value, type):
            verdict = getattr(getattr(value, "verdict", None), "value", None)
            marks = [f"snippet-verdict-{verdict}"] if isinstance(verdict, str) else []
            out = _output(["snippet-markdown", *marks])
            text = markdown()
            self.state.nested_parse(StringList(text.splitlines(), source=_where(self)),
                                    self.content_offset, out)
            return out
        if "sympy" in sys.modules and isinstance(value, sys.modules["sympy"].Basic):
            latex = sys.modules["sympy"].latex(value)
            out = _output(["snippet-math"])
            out += nodes.math_block(latex, latex, nowrap=False, number=None)
            return out
        out = _output(["snippet-repr"])
        text = pprint.pformat(value, width=88)
        out += nodes.literal_block(text, text, language="python")
        return out


class SnippetCommand(SphinxDirective):
    """``{snippet-command}``: a command run at build time, shown with its output."""

    has_content = True
    option_spec = {"returncode": int}  # noqa: RUF012 (docutils' interface)

    def run(self) -> list[nodes.Node]:
        command = " ".join(line.strip() for line in self.content if line.strip())
        words = shlex.split(command)
        if not words or words[0] not in _PROGRAMS:
            raise SnippetError(
                f"{_where(self)}: a command starts with one of {sorted(_PROGRAMS)}, "
                f"got {command!r}"
            )
        page = _page(self)
        root = str(Path(__file__).resolve().parents[2])  # the moetheory being documented
        path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env.update(PYTHONPATH=path, COLUMNS="90", MPLBACKEND="Agg")
        try:
            proc = subprocess.run(
                [sys.executable, *_PROGRAMS[words[0]], *words[1:]], cwd=page.folder,
                capture_output=True, text=True, timeout=COMMAND_TIMEOUT, env=env,
            )
        except subprocess.TimeoutExpired:
            raise SnippetError(
                f"{_where(self)}: {command!r} ran over {COMMAND_TIMEOUT} s"
            ) from None
        output = _strip(proc.stdout + proc.stderr, page.folder)
        expected = self.options.get("returncode", 0)
        if proc.returncode != expected:
            raise SnippetError(
                f"{_where(self)}: {command!r} exited with {proc.returncode}, expected "
                f"{expected}:\n{output[-4000:]}"
            )
        kept = [line for line in output.splitlines() if not _HEADER.match(line)]
        text = "\n".join([f"$ {command}", *kept])
        out = _output([])
        out += nodes.literal_block(text, text, language="console")
        return [_snippet("command", out)]


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def _page_read(app: Any, doctree: nodes.document) -> None:
    """Forget what the page's snippets registered and imported."""
    page = _PAGES.pop(app.env.docname, None)
    if page is None:
        return
    from moetheory.engine.catalogue import catalogue_spec
    from moetheory.engine.registry import unregister

    for claim_id in _claim_ids() - page.claims_before:
        if catalogue_spec(claim_id) is None:  # the catalogue, loaded by a snippet, stays
            unregister(claim_id)
    folder = str(page.folder)
    for name in set(sys.modules) - page.modules_before:
        if (getattr(sys.modules[name], "__file__", None) or "").startswith(folder):
            del sys.modules[name]
    shutil.rmtree(page.folder, ignore_errors=True)


def _clean_up(app: Any, exception: BaseException | None) -> None:
    """Remove the working folders of pages whose reading stopped (a snippet failed)."""
    for page in _PAGES.values():
        shutil.rmtree(page.folder, ignore_errors=True)
    _PAGES.clear()


def _always_outdated(app: Any, env: Any, added: set[str], changed: set[str],
                     removed: set[str]) -> list[str]:
    """Pages with snippets are read at every build: their output is this code's."""
    return sorted(getattr(env, "moetheory_snippet_docs", set()) - removed)


def _purge(app: Any, env: Any, docname: str) -> None:
    getattr(env, "moetheory_snippet_docs", set()).discard(docname)


def _merge(app: Any, env: Any, docnames: set[str], other: Any) -> None:
    if not hasattr(env, "moetheory_snippet_docs"):
        env.moetheory_snippet_docs = set()
    env.moetheory_snippet_docs |= getattr(other, "moetheory_snippet_docs", set())


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("snippet", Snippet)
    app.add_directive("snippet-command", SnippetCommand)
    app.connect("doctree-read", _page_read)
    app.connect("env-get-outdated", _always_outdated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _clean_up)
    app.add_css_file("snippets.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
