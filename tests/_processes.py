"""Processes of this test run, read from ``/proc`` (Linux): for tests that a check's child
processes do not outlive it."""

from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["alive", "children", "descriptor_targets", "group_alive", "live_processes",
           "wait_gone", "wait_group_gone"]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def live_processes(field: int, value: int) -> list[int]:
    """Live processes whose ``/proc/PID/stat`` field ``field`` (after the name) is ``value``:
    field 1 is the parent's PID, field 2 the process group."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[field]) == value and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def group_alive(pgid: int) -> list[int]:
    """Live processes of the process group ``pgid``."""
    return live_processes(2, pgid)


def children() -> list[int]:
    """Live child processes of this test process."""
    return live_processes(1, os.getpid())


def wait_group_gone(pgid: int, seconds: float = 10.0) -> list[int]:
    """Wait up to ``seconds`` for the group ``pgid`` to end; its processes still alive."""
    deadline = time.time() + seconds
    while time.time() < deadline and group_alive(pgid):
        time.sleep(0.05)
    return group_alive(pgid)


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    """Wait up to ``seconds`` for ``pids`` to end; those still alive."""
    deadline = time.time() + seconds
    while time.time() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def descriptor_targets() -> set[str]:
    """What this process's open descriptors name (``/proc/self/fd``): pipes, files, sockets.
    A check's child that writes to every pipe but these reaches only the engine's."""
    held = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            held.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return held
