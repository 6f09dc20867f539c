"""The house: the layout's promises, checked on the source tree (README, *Layout*)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("moetheory", "proofs_checks")
#: Mathematics of the library: the engine imports none of it.
MATHEMATICS = ("moetheory.stats", "moetheory.symbolic", "moetheory.estimation",
               "moetheory.continual", "moetheory.jacobs", "moetheory.docs",
               "moetheory.strategies", "proofs_checks")


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The project modules ``path`` imports, anywhere in it (lazy imports count too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle() -> None:
    # a package's public face importing its private modules is not a circle; two modules
    # importing each other (even lazily, inside a function) are
    assert _cycles() == []


def test_the_engine_imports_no_mathematics() -> None:
    upward = {m: sorted(d for d in deps if d.startswith(MATHEMATICS))
              for m, deps in GRAPH.items() if m.startswith("moetheory.engine")}
    assert {m: d for m, d in upward.items() if d} == {}


@pytest.mark.parametrize("package", ["moetheory.stats", "moetheory.symbolic",
                                     "moetheory.jacobs", "moetheory.estimation",
                                     "moetheory.continual"])
def test_the_mathematics_never_imports_the_docs_generator_or_the_checks(package: str) -> None:
    bad = {m: sorted(d for d in deps if d.startswith(("moetheory.docs", "proofs_checks")))
           for m, deps in GRAPH.items() if m.startswith(package)}
    assert {m: d for m, d in bad.items() if d} == {}


def test_few_modules_directly_under_the_package() -> None:
    top = sorted(p.name for p in (ROOT / "moetheory").glob("*.py"))
    assert len(top) <= 6, top


def test_no_family_of_prefixed_private_modules() -> None:
    # an engine whose code spans several private modules is a subpackage (its ``__init__`` the
    # public module, ``router_pde/_decide.py``), not ``_router_pde_decide.py``,
    # ``_router_pde_pieces.py``, ... side by side with the package's other modules (issue 43)
    families: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("_*_*.py"):
            if not path.name.startswith("__"):
                prefix = path.stem[1:].split("_")[0]
                key = f"{path.parent.relative_to(ROOT)}/_{prefix}_*"
                families.setdefault(key, []).append(path.name)
    assert {k: sorted(v) for k, v in families.items() if len(v) > 1} == {}


def test_no_source_file_over_1500_lines() -> None:
    long = {}
    for folder in ("moetheory", "proofs_checks", "tests", "benchmarks", "examples", "docs"):
        for path in (ROOT / folder).rglob("*.py"):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > 1500 and "_build" not in path.parts:
                long[str(path.relative_to(ROOT))] = n
    assert long == {}


def test_no_control_character_in_a_source_file() -> None:
    # an editor that writes "\b" of "\beta" as a backspace leaves a docstring that renders
    # as garbage (found by the docs' rendering test after a refactor); this finds it at once
    bad = []
    for folder in ("moetheory", "proofs_checks", "tests", "benchmarks", "examples", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".md"} and "_build" not in path.parts:
                text = path.read_text(encoding="utf-8")
                bad += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, i) + 1}"
                        for i, ch in enumerate(text) if ord(ch) < 32 and ch not in "\n\t"]
    assert bad == []


def test_no_docstring_holds_a_control_character() -> None:
    # an escape in a non-raw docstring ("\approx" is BEL + "pprox") reaches the API pages
    import importlib
    import pkgutil

    import moetheory

    bad = []
    for info in pkgutil.walk_packages(moetheory.__path__, "moetheory."):
        if info.name.startswith("moetheory.docs") or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in [*vars(module).items(), ("<module>", module)]:
            doc = getattr(obj, "__doc__", None)
            if isinstance(doc, str) and any(ord(c) < 32 and c not in "\n\t" for c in doc):
                bad.append(f"{info.name}.{name}")
    assert not bad
