"""The example notebook runs top to bottom in a Jupyter kernel, and every result it shows
renders itself as Markdown and HTML with typeset maths (issue 29, item 6); the results of the
public functions (items 1, 2, 4) are checked as the data they hold."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy as sp

import moetheory

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "own_mathematics.ipynb"


#: Run in the kernel after the notebook: the results it displayed, as their JSON data.
PROBE = """
import json
print(json.dumps({"pde": pde.to_dict(), "relations": relations.to_dict(),
                  "expectation": expectation.to_dict()}))
"""


@pytest.fixture(scope="module")
def run() -> tuple[Any, dict[str, Any]]:
    """The notebook executed top to bottom, and the data of its results (:data:`PROBE`)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    # the kernel imports the moetheory this test imported (not another installed copy)
    root = str(Path(moetheory.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    with client.setup_kernel(env={**os.environ, "PYTHONPATH": path}):
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        nb.cells.append(nbformat.v4.new_code_cell(PROBE))
        probe = client.execute_cell(nb.cells[-1], len(nb.cells) - 1)
        nb.cells.pop()
    printed = "".join(o.text for o in probe.outputs if o.output_type == "stream")
    return nb, json.loads(printed)


@pytest.fixture(scope="module")
def executed(run: tuple[Any, dict[str, Any]]) -> Any:
    return run[0]


@pytest.fixture(scope="module")
def data(run: tuple[Any, dict[str, Any]]) -> dict[str, Any]:
    return run[1]


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


def test_the_public_router_pde_refutes_the_own_router(executed: Any, data: dict) -> None:
    pde = data["pde"]
    assert (pde["verdict"], pde["scope"]) == ("refuted", {"d": "all"})
    u, n_b, n_x, tau = sp.symbols("u n_b n_x tau")
    residual = sp.sympify(pde["residual_over_H"]["sympy"])
    assert sp.simplify(residual - tau * u / (n_b * n_x + tau) ** 2) == 0
    point = pde["counterexample"]
    assert point["d"] >= 1 and sp.Rational(point["residual_over_H"]["sympy"]) != 0
    md = shown(executed, "router-pde")["text/markdown"]
    assert md.startswith(r"**Is $\beta_1^\top \partial H/\partial\beta_1 = 0$?** — **refuted** "
                         r"(every $d \ge 1$)")
    display = next(line for line in md.splitlines() if line.startswith("$$"))
    assert display.startswith("$$\\beta_1^\\top \\frac{\\partial H}{\\partial \\beta_1} = ")
    assert "\\tau" in display  # the residual, typeset


def test_the_own_router_and_expert_have_no_relation(executed: Any, data: dict) -> None:
    rel = data["relations"]
    assert (rel["verdict"], rel["scope"]) == ("proved", {"d": [1, 2]})
    assert rel["statement"] == {"kind": "no-relation", "order": 2}
    assert rel["relations"] == [] and rel["complete"]
    assert shown(executed, "relations")["text/markdown"].startswith(
        "**proved**: no linear relation of order $\\le 2$"
    )


def test_the_public_expectation_check_decides(executed: Any, data: dict) -> None:
    exp = data["expectation"]
    assert exp["verdict"] == "supported" and exp["tol"] == 0.01
    low, high = exp["interval"]
    assert exp["value"] - 0.01 <= low <= 1 / np.sqrt(np.pi) <= high <= exp["value"] + 0.01
    assert shown(executed, "expectation")["text/markdown"].startswith(
        r"**$\mathbb{E}[X]$: supported**")
    assert shown(executed, "expectation-slip")["text/markdown"].startswith(
        r"**$\mathbb{E}[X]$: unsupported**"
    )
    needed, verdict, n = ast.literal_eval(shown(executed, "required-n")["text/plain"])
    # ((t + z) s / m)^2 with s ≈ 0.83 (sd of max(Z1, Z2)), m = 0.005: about 5.5e5
    assert 4e5 < needed < 7e5 and needed % 10 == 0
    assert verdict == "supported" and n <= needed


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
