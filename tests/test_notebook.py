"""The example notebook runs top to bottom in a Jupyter kernel, and every result it shows
renders itself as Markdown and HTML with typeset maths (issue 29, item 6)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import moetheory

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "own_mathematics.ipynb"


@pytest.fixture(scope="module")
def executed() -> Any:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    # the kernel imports the moetheory this test imported (not another installed copy)
    root = str(Path(moetheory.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    client.execute(env={**os.environ, "PYTHONPATH": path})
    return nb


def shown(nb: Any, cell_id: str) -> dict[str, str]:
    """The rich output (``mimetype -> text``) of the cell ``cell_id``."""
    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    results = [o for o in cell.outputs if o.output_type == "execute_result"]
    assert len(results) == 1, cell.outputs
    return dict(results[0]["data"])


def test_the_committed_notebook_is_valid_and_has_no_outputs() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")


def test_no_cell_fails(executed: Any) -> None:
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors, errors


def test_the_router_pde_is_typeset(executed: Any) -> None:
    data = shown(executed, "pde-perturbed")
    md, page = data["text/markdown"], data["text/html"]
    assert md.startswith("**Euler residual of the perturbed")
    assert "eq. (4) fails" in md and "$u = 0$" in md
    assert "\\(" in page and "$" not in page
    assert data["text/latex"].startswith("$\\beta_1^\\top \\frac{\\partial H}")


def test_the_own_router_has_no_euler_relation(executed: Any) -> None:
    md = shown(executed, "pde-own")["text/markdown"]
    assert md.startswith("**Relations of the cosine + tau router × linear expert**")
    assert "1 generating relation" in md and "\\beta_{1,1} \\frac{\\partial H}" not in md


def test_the_closed_form_is_supported(executed: Any) -> None:
    md = shown(executed, "mc-compare")["text/markdown"]
    assert md.startswith("**E max(Z1, Z2)** — **supported**")


def test_the_claim_and_its_report_are_displayed(executed: Any) -> None:
    claim = shown(executed, "claim-register")["text/markdown"]
    assert claim.startswith("**`mine.expected-max`** — **statistical**")
    assert "$\\mathbb{E}\\max(Z_1, Z_2) = 1/\\sqrt{\\pi}$" in claim
    report = shown(executed, "claim-verify")
    assert report["text/markdown"].startswith("**`mine.expected-max`** — **supported**")
    assert "\\(\\mathbb{E}\\max(Z_1, Z_2) = 1/\\sqrt{\\pi}\\)" in report["text/html"]
    assert shown(executed, "claim-dict")["text/plain"] == "('supported', 1)"


def test_a_catalogue_claim_is_displayed(executed: Any) -> None:
    assert shown(executed, "catalogue-claim")["text/markdown"].startswith(
        "**`pcr.pde.cosine`** — **exact**"
    )
    assert shown(executed, "catalogue-verify")["text/markdown"].startswith(
        "**`pcr.pde.cosine`** — **proved**"
    )
