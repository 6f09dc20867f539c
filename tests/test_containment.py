"""No process, CPU second or run store escapes the engine (issue 30, items 1-3, 13 and 14).

Each test starts real processes that try to escape: ``start_new_session=True``,
``process_group=0``, a daemon's fork + setsid + fork. Every process a test starts runs
``sleep`` with a duration unique to the test run, so the test can find (and, whatever
happens, kill) exactly its own processes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from moetheory import CheckContext, Outcome, Verdict, verify
from moetheory.engine.cli import main

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")

#: Starts three processes that leave the check's process group, each running ``sleep``,
#: and writes their PIDs to ``pids`` (one a line). Run in the check's process.
SPAWN = textwrap.dedent(
    """
    import os, subprocess

    def spawn_escapees(pids, seconds):
        argv = ["sleep", seconds]
        a = subprocess.Popen(argv, start_new_session=True)
        b = subprocess.Popen(argv, process_group=0)
        r, w = os.pipe()
        first = os.fork()
        if first == 0:  # a daemon: fork, setsid, fork, the middle one exits
            try:
                os.setsid()
                if os.fork() == 0:
                    os.write(w, str(os.getpid()).encode())
                    os.execvp("sleep", argv)
            finally:
                os._exit(0)
        os.waitpid(first, 0)
        os.close(w)
        c = int(os.read(r, 32))
        with open(pids, "a") as f:
            f.write(f"{a.pid}\\n{b.pid}\\n{c}\\n")
    """
)
_names: dict[str, object] = {}
exec(SPAWN, _names)
spawn_escapees = _names["spawn_escapees"]


def _state(pid: int) -> str | None:
    """The process's state letter, ``None`` once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[data.rfind(b")") + 2 :].split()[0].decode()


def _ours(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker`` (zombies left out)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if marker.encode() in argv and _state(int(name)) not in (None, "Z"):
            found.append(int(name))
    return found


def _wait_gone(marker: str, seconds: float = 3.0) -> list[int]:
    """The processes still running ``marker`` after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while (left := _ours(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def _wait_no_descendants(seconds: float = 3.0) -> list[int]:
    """This process's live descendants after up to ``seconds``."""
    from moetheory.engine._supervise import descendants

    deadline = time.monotonic() + seconds
    while (left := [p for p in descendants(os.getpid()) if _state(p) not in (None, "Z")]
           ) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.fixture
def marker() -> Iterator[str]:
    """A ``sleep`` duration unique to this test; its processes are killed afterwards."""
    value = f"{random.randrange(10**6, 10**7)}.5"
    yield value
    for pid in _ours(value):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _escaping(pids: Path, marker: str, then: str = "return"):
    def check(ctx: CheckContext) -> Outcome:
        spawn_escapees(str(pids), marker)
        if then == "spin":
            while True:
                pass
        if then == "sleep":
            time.sleep(60)
        return Outcome(Verdict.PROVED, "spawned", {})

    return check


def _pids(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


# ------------------------------------------------------------------ item 1: escaping children


@pytest.mark.parametrize(("then", "limits", "reason"), [
    ("return", {}, None),
    ("spin", {"timeout": 1.0}, "time limit exceeded"),
    ("sleep", {"wall_timeout": 1.0}, "wall-clock limit exceeded"),
])
def test_no_descendant_outlives_its_check(temp_claims, tmp_path, marker, then, limits,
                                          reason) -> None:
    """Children in a new session, a new process group or daemonised (fork + setsid + fork)
    ran on after the run with parent PID 1: every descendant is killed when the check ends,
    times out or hits the wall-clock backstop."""
    pids = tmp_path / "pids"
    temp_claims("test.escape", _escaping(pids, marker, then))
    (entry,) = verify(["test.escape"], **limits)["claims"]
    assert len(_pids(pids)) == 3
    assert _wait_gone(marker, 2.0) == []
    if reason is None:
        assert entry["verdict"] == "proved"
    else:
        assert entry["verdict"] == "inconclusive" and entry["evidence"]["reason"] == reason


def _script(body: str) -> str:
    return SPAWN + textwrap.dedent(body)


def test_no_descendant_outlives_a_run_killed_by_sigkill(tmp_path, marker) -> None:
    """``kill -9`` of the run: the check's supervisor sees the engine go, kills every
    descendant (also those that left the process group) and removes the run's store."""
    pids = tmp_path / "pids"
    store_parent = tmp_path / "tmp"
    store_parent.mkdir()
    script = _script(f"""
        import sys, time
        from moetheory import Outcome, Verdict, claim
        from moetheory.engine.cli import main

        @claim("test.escape.killed", reading="r", statement="s", seed_files=["t"],
               section="T")
        def check(ctx):
            spawn_escapees({str(pids)!r}, {marker!r})
            time.sleep(120)
            return Outcome(Verdict.PROVED, "slept")

        sys.exit(main(["verify", "--only", "test.escape.killed", "--no-progress"]))
    """)
    env = {**os.environ, "TMPDIR": str(store_parent)}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(_pids(pids)) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert len(_pids(pids)) == 3
        assert list(store_parent.glob("moetheory-run-*"))  # the run's store exists
    finally:
        proc.kill()
        proc.wait()
    assert _wait_gone(marker, 5.0) == []
    deadline = time.monotonic() + 5
    while list(store_parent.glob("moetheory-run-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(store_parent.glob("moetheory-run-*")) == []


# ------------------------------------------------------------- item 2: CPU of the whole tree


def _burn_in_children(n: int, seconds: float):
    def check(ctx: CheckContext) -> Outcome:
        children = []
        for _ in range(n):
            pid = os.fork()
            if pid == 0:
                while time.process_time() < seconds:
                    pass
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.waitpid(pid, 0)
        return Outcome(Verdict.PROVED, f"{n} children burnt {seconds} s each", {})

    return check


def test_the_time_limit_counts_the_cpu_of_the_checks_subprocesses(temp_claims) -> None:
    """4 x 0.8 s of CPU in a check's children under a 1 s limit: each child stayed under
    its own limit and the check ran to its end (or to the wall-clock backstop)."""
    temp_claims("test.burn.over", _burn_in_children(4, 0.8))
    temp_claims("test.burn.under", _burn_in_children(2, 0.1))
    report = verify(["test.burn.*"], timeout=1.0)
    by_id = {e["id"]: e for e in report["claims"]}
    over, under = by_id["test.burn.over"], by_id["test.burn.under"]
    assert over["verdict"] == "inconclusive", over["summary"]
    assert over["evidence"] == {"reason": "time limit exceeded", "timeout_seconds": 1.0}
    assert under["verdict"] == "proved"


# ---------------------------------------------------------------- item 3: on a Dask cluster


def _map_burn(seconds: float) -> float:
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass
    return seconds


def _maps_too_much(ctx: CheckContext) -> Outcome:
    done = ctx.map(_map_burn, [2.0, 2.0, 2.0])
    return Outcome(Verdict.PROVED, "mapped", {"done": done})


@pytest.fixture
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed", reason="dask.distributed not installed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=3, processes=False, protocol="tcp",
        dashboard_address=None,
    ) as local:
        yield local.scheduler_address


@pytest.mark.slow
def test_a_cluster_run_gives_the_local_report_under_limits(temp_claims, cluster) -> None:
    """Tasks sent with ``ctx.map`` had no limits: on the cluster the check waited for them
    without using CPU time and ended ``proved`` (or at the wall-clock backstop) where the
    local run timed out. Their CPU time counts against the check's limit as locally."""
    temp_claims("test.cluster.maps", _maps_too_much)
    temp_claims("test.cluster.burn", _burn_in_children(4, 0.8))
    local = verify(["test.cluster.*"], timeout=1.0)
    remote = verify(["test.cluster.*"], timeout=1.0, scheduler=cluster)
    # the workers run in this process: the checks' and the batches' processes are its
    # descendants, and none runs on once verify has returned
    assert _wait_no_descendants() == []
    for entry in (*local["claims"], *remote["claims"]):
        entry.pop("seconds")
        assert entry["verdict"] == "inconclusive", entry["summary"]
        assert entry["evidence"] == {"reason": "time limit exceeded", "timeout_seconds": 1.0}
    assert local["claims"] == remote["claims"]


def test_a_check_on_a_cluster_stops_when_its_client_is_killed(tmp_path, cluster) -> None:
    """``kill -9`` of the client: the check ran on the worker until its CPU limit."""
    pidfile = tmp_path / "pid"
    script = textwrap.dedent(f"""
        import os, sys, time
        from moetheory import Outcome, Verdict, claim
        from moetheory.engine.cli import main

        @claim("test.cluster.orphan", reading="r", statement="s", seed_files=["t"],
               section="T")
        def check(ctx):
            with open({str(pidfile)!r}, "w") as f:
                f.write(str(os.getpid()))
            time.sleep(60)
            return Outcome(Verdict.PROVED, "slept")

        sys.exit(main(["verify", "--only", "test.cluster.orphan", "--no-progress",
                       "--scheduler", {cluster!r}]))
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.DEVNULL)
    pid = None
    try:
        deadline = time.monotonic() + 60
        while not pidfile.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        time.sleep(0.1)
        pid = int(pidfile.read_text())
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 5
        while _state(pid) not in (None, "Z") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _state(pid) in (None, "Z"), "the check ran on after its client was killed"
    finally:
        proc.kill()
        proc.wait()
        if pid is not None and _state(pid) not in (None, "Z"):
            os.kill(pid, signal.SIGKILL)


# ------------------------------------------------------------------ items 13, 14: the store


def _start_time(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as f:
        data = f.read()
    return int(data[data.rfind(b")") + 2 :].split()[19])


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_run_sweeps_the_stores_of_dead_runs(tmp_path, monkeypatch) -> None:
    """A run killed by ``kill -9`` left its store (174 MB for the lemma claims) in /tmp.
    A run removes the stores of runs whose process is gone; it keeps those of live runs,
    those it cannot judge and those of other users."""
    import tempfile

    from moetheory.engine import shared

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    me = os.getpid()

    def store(name: str, owner: dict | None) -> Path:
        path = tmp_path / f"moetheory-run-{name}"
        path.mkdir(mode=0o700)
        (path / "grid.pickle").write_bytes(b"x" * 1000)
        if owner is not None:
            (path / "owner.json").write_text(json.dumps(owner))
        return path

    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    dead = store("dead", {"pid": _dead_pid(), "start": 1, "boot": boot})
    reused = store("reused", {"pid": me, "start": _start_time(me) + 1, "boot": boot})
    rebooted = store("rebooted", {"pid": me, "start": _start_time(me), "boot": "other"})
    live = store("live", {"pid": me, "start": _start_time(me), "boot": boot})
    unknown = store("unknown", None)
    other = tmp_path / "other-user"
    other.mkdir()
    (tmp_path / "moetheory-run-link").symlink_to(other)
    with shared.run_store() as path:
        assert path.parent == tmp_path
        left = sorted(p.name for p in tmp_path.iterdir())
    assert not dead.exists() and not reused.exists() and not rebooted.exists()
    assert live.exists() and unknown.exists() and other.exists()
    assert left == sorted(["moetheory-run-link", "other-user", live.name, unknown.name,
                           path.name])


def test_the_sweep_leaves_other_users_stores_alone(tmp_path, monkeypatch) -> None:
    import tempfile

    from moetheory.engine import shared

    if os.geteuid() != 0:
        pytest.skip("needs root to make a directory owned by another user")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    theirs = tmp_path / "moetheory-run-theirs"
    theirs.mkdir(mode=0o700)
    (theirs / "owner.json").write_text(json.dumps({"pid": _dead_pid(), "start": 1}))
    os.chown(theirs, 65534, 65534)
    with shared.run_store():
        pass
    assert theirs.exists()


@pytest.mark.parametrize("unsafe", ["writable", "foreign"])
def test_an_unsafe_store_variable_is_refused(temp_claims, tmp_path, monkeypatch, capsys,
                                             unsafe) -> None:
    """``MOETHEORY_RUN_STORE`` was trusted whatever it named, and results were unpickled
    from it: a store writable by others, or not the user's, is refused in one line."""
    from moetheory.engine.shared import STORE_ENV, shared

    store = tmp_path / "store"
    store.mkdir()
    if unsafe == "writable":
        store.chmod(0o777)
    elif os.geteuid() == 0:
        os.chown(store, 65534, 65534)
    else:
        pytest.skip("needs root to make a directory owned by another user")
    ran = tmp_path / "ran"

    def check(ctx: CheckContext) -> Outcome:
        ran.write_text("yes")
        return Outcome(Verdict.PROVED, "ran")

    temp_claims("test.store", check)
    monkeypatch.setenv(STORE_ENV, str(store))
    report = tmp_path / "r.json"
    report.write_text("an earlier report")
    assert main(["verify", "--only", "test.store", "--no-progress", "--json",
                 str(report)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and STORE_ENV in err, err
    assert not ran.exists() and report.read_text() == "an earlier report"

    @shared()
    def value(x: int) -> int:
        return x + 1

    with pytest.raises(ValueError, match=STORE_ENV):
        value(1)
