"""Every citation of a docstring renders as written (issue 45: "5 mangled citations").

reStructuredText reads a citation whose text starts with one initial and a full stop on a
single line (``.. [1] P. Hall, ...``) as an enumerated list: the page showed "Hall, ..." and
"Cody and W. Waite, ...", the authors' initials eaten.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_CITATION = re.compile(r"^(?P<indent>[ \t]*)\.\. \[(?P<label>[^\]]+)\] ?(?P<first>.*)$")


def citations(text: str) -> Iterator[tuple[int, str, str]]:
    """``(line, label, text)`` of each ``.. [label] text`` citation of a source file, its
    continuation lines kept as lines of its body; citations inside a doctest (output shown,
    not rendered) are left out."""
    lines = text.splitlines()
    in_doctest = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">>>"):
            in_doctest = True
        elif not stripped:
            in_doctest = False
        m = _CITATION.match(line)
        if not m or in_doctest:
            continue
        body = [m["first"]]
        for nxt in lines[i + 1:]:
            if not nxt.strip() or len(nxt) - len(nxt.lstrip()) <= len(m["indent"]):
                break
            body.append(nxt.strip())
        yield i + 1, m["label"], "\n   ".join(body)


def rendered(label: str, text: str) -> str:
    """The text docutils renders for the citation ``.. [label] text``."""
    from docutils import nodes
    from docutils.core import publish_doctree

    tree = publish_doctree(f".. [{label}] {text}\n", settings_overrides={"report_level": 5})
    node = next(iter(tree.findall(nodes.citation)), None) or next(
        iter(tree.findall(nodes.footnote)), None)
    assert node is not None, text
    return " ".join(node.astext().split()[1:])  # without the label


def _sources() -> list[Path]:
    return sorted([*ROOT.glob("moetheory/**/*.py"), *ROOT.glob("proofs_checks/**/*.py")])


def test_a_citation_starting_with_an_initial_on_one_line_is_caught() -> None:
    assert rendered("1", "P. Hall, *The Bootstrap*, 1992.").startswith("Hall")
    assert rendered("1", "Peter Hall, *The Bootstrap*, 1992.").startswith("Peter Hall")
    found = list(citations('"""\nReferences\n----------\n.. [5] P. Hall, *B*, 1992.\n'
                           ">>> print(x)\n.. [1] A. Author, 2025.\n\"\"\"\n"))
    assert found == [(4, "5", "P. Hall, *B*, 1992.")]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_docstring_citation_renders_with_its_first_words(path: Path) -> None:
    bad = []
    for line, label, text in citations(path.read_text(encoding="utf-8")):
        start = re.sub(r"[*`]", "", text)[:12]
        if not rendered(label, text).startswith(start):
            bad.append(f"line {line}: [{label}] {text[:60]!r} renders as "
                       f"{rendered(label, text)[:60]!r}")
    assert not bad, "\n".join(bad)
