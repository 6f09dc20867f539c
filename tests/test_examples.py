"""Each script of ``examples/`` runs to completion in under a minute and says what it should."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def python(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run this interpreter with ``args`` in ``cwd``, capturing its output as text."""
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def run(script: str, *args: str, cwd: Path) -> str:
    proc = python(str(EXAMPLES / script), *args, cwd=cwd)
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def needs(module: str) -> None:
    try:
        found = importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        pytest.skip(f"{module} is not in this tree yet")


def test_every_example_is_tested() -> None:
    tested = {
        "verify_one_claim.py",
        "register_claim.py",
        "property_test.py",
        "own_expert_identifiability.py",
        "simulate_forgetting.py",
        "own_claim.py",
        "own_claims_test.py",
    }
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_verify_one_claim(tmp_path: Path) -> None:
    out = run("verify_one_claim.py", "pcr.pde.cosine", cwd=tmp_path)
    first = out.splitlines()[0]
    assert first.startswith("pcr.pde.cosine: ")
    verdict = first.split(": ", 1)[1].split(" ", 1)[0]
    assert verdict in {"proved", "refuted", "supported", "unsupported", "inconclusive"}
    assert "evidence:" in out


@pytest.mark.parametrize(
    ("script", "says"),
    [
        pytest.param("register_claim.py",
                     ("mine.amgm-identity: proved", "mine.square-exceeds: refuted"),
                     id="register-claim-proves-and-refutes"),
        pytest.param("property_test.py", ("scale invariance holds", "counterexample:"),
                     id="property-test-script"),
        pytest.param("own_claim.py",
                     ("mine.top-score: supported", "mine.top-score-slip: unsupported"),
                     id="own-claim-supports-the-closed-form-and-not-the-slip"),
    ],
)
def test_example_says(script: str, says: tuple[str, ...], tmp_path: Path) -> None:
    out = run(script, cwd=tmp_path)
    for text in says:
        assert text in out, (script, text)


@pytest.mark.slow  # the script of the same example runs in the default tier
def test_property_test_under_pytest(tmp_path: Path) -> None:
    proc = python("-m", "pytest", "-q", "-p", "no:cacheprovider",
                  str(EXAMPLES / "property_test.py"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert "2 passed" in proc.stdout


def test_own_expert_identifiability(tmp_path: Path) -> None:
    needs("moetheory.symbolic.identifiability")
    out = run("own_expert_identifiability.py", cwd=tmp_path)
    assert "softplus" in out and "a*exp(b*x)" in out
    assert "refuted" in out  # a exp(b x) is linear in a: ∂²h/∂a² = 0


def test_simulate_forgetting_writes_plot(tmp_path: Path) -> None:
    needs("moetheory.continual")
    needs("matplotlib")
    out = run("simulate_forgetting.py", str(tmp_path / "f.png"), cwd=tmp_path)
    assert (tmp_path / "f.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "single expert (M = 1)" in out


def test_own_claim_with_verify_checks(tmp_path: Path) -> None:
    proc = python("-m", "moetheory", "verify", "--checks", str(EXAMPLES / "own_claim.py"), "-v",
                  cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()]
    assert sorted(r[:2] for r in rows[:2]) == [["mine.top-score", "supported"],
                                              ["mine.top-score-slip", "unsupported"]]
    assert "2 claims checked: supported 1, unsupported 1" in proc.stdout.splitlines()


def test_own_claims_under_pytest(tmp_path: Path) -> None:
    proc = python("-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "moetheory.testing._plugin",
                  str(EXAMPLES / "own_claims_test.py"), str(EXAMPLES / "own_claim.py"),
                  cwd=tmp_path, timeout=120)
    assert proc.returncode == 1, proc.stdout  # the slip fails, as it should
    assert "1 failed, 5 passed" in proc.stdout
    assert "claim mine.top-score-slip: expected proved or supported, got unsupported" in (
        proc.stdout)
