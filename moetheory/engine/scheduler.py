"""The address of a Dask scheduler, checked before a run touches any report.

A ``--scheduler`` that is wrong used to cost a minute and a multi-line traceback (or a hang
of a quarter of an hour, for an address that accepts connections but never answers), after
the reports of an earlier run had already been replaced. :func:`check_scheduler` checks the
address's syntax, the TLS settings an ``tls://`` address needs, and then asks the scheduler
who it is, all within a time limit, and says what is wrong in one line.
"""

from __future__ import annotations

import math
import os
import re
import socket
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from moetheory.engine.registry import Claim

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "TIMEOUT_VARIABLE",
    "check_scheduler",
    "check_shippable",
    "connect_timeout",
]

#: Seconds allowed to reach the scheduler and hear its answer, unless the environment
#: variable :data:`TIMEOUT_VARIABLE` says otherwise.
DEFAULT_CONNECT_TIMEOUT = 10.0

#: The environment variable that sets the time allowed to reach the scheduler (seconds).
TIMEOUT_VARIABLE = "MOETHEORY_SCHEDULER_TIMEOUT"

_SCHEMES = ("tcp", "tls", "ws", "wss")
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r":(?P<port>[0-9]{1,5})"
)
_EXAMPLE = ("an address such as tcp://host:8786 (scheme tcp, tls, ws or wss; a host; a port "
            "1-65535)")


def connect_timeout(environ: Any = None) -> float:
    """The seconds allowed to reach a scheduler: :data:`TIMEOUT_VARIABLE` or 10.

    Parameters
    ----------
    environ : mapping, optional
        The environment to read (default :data:`os.environ`).

    Returns
    -------
    float
        A positive, finite number of seconds, at most one hour.

    Raises
    ------
    ValueError
        One line naming the variable, when it is set to anything else.

    See Also
    --------
    check_scheduler : uses it.

    Notes
    -----
    The limit covers the TCP connection, the TLS handshake and the scheduler's answer
    together, so an address that accepts connections but never answers fails after it.

    Examples
    --------
    >>> connect_timeout({})
    10.0
    >>> connect_timeout({"MOETHEORY_SCHEDULER_TIMEOUT": "2.5"})
    2.5
    """
    env = os.environ if environ is None else environ
    text = env.get(TIMEOUT_VARIABLE)
    if text is None or not str(text).strip():
        return DEFAULT_CONNECT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 3600:
        raise ValueError(
            f"{TIMEOUT_VARIABLE} must be a number of seconds from 0 (excluded) to 3600, "
            f"got {text!r}"
        )
    return value


def _parse(address: str, option: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a scheduler address, or a one-line ``ValueError``."""
    where = f"{option} {address!r}"
    match = _ADDRESS.fullmatch(address.strip()) if isinstance(address, str) else None
    if match is None:
        raise ValueError(f"{where}: expected {_EXAMPLE}")
    scheme = (match.group("scheme") or "tcp").lower()
    if scheme not in _SCHEMES:
        raise ValueError(f"{where}: scheme {scheme!r} is not supported; expected {_EXAMPLE}")
    port = int(match.group("port"))
    if not 1 <= port <= 65535:
        raise ValueError(f"{where}: port {port} is out of range; expected {_EXAMPLE}")
    return scheme, match.group("host").strip("[]"), port


async def _identity(address: str, connection_args: dict[str, Any], timeout: float) -> Any:
    from distributed.comm import connect

    comm = await connect(address, timeout=timeout, **connection_args)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _ask(address: str, connection_args: dict[str, Any], timeout: float) -> dict[str, Any]:
    """The scheduler's answer to ``identity`` (``{"answer": ...}``), or ``{"error": exc}``;
    asked in a thread of its own (a caller may be running an event loop already) and
    abandoned after ``timeout`` seconds (a ``TimeoutError``)."""
    box: dict[str, Any] = {}

    def run() -> None:
        import asyncio  # here: the command line imports this module for every command

        try:
            box["answer"] = asyncio.run(
                asyncio.wait_for(_identity(address, connection_args, timeout), timeout)
            )
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=run, name="moetheory-scheduler-check", daemon=True)
    thread.start()
    thread.join(timeout + 5)
    if thread.is_alive():
        return {"error": TimeoutError(f"no answer within {timeout:g} s")}
    return box


def check_scheduler(address: str, option: str = "--scheduler", timeout: float | None = None
                    ) -> None:
    """Check that ``address`` names a Dask scheduler that answers, within ``timeout``.

    Parameters
    ----------
    address : str
        The scheduler's address, e.g. ``tcp://host:8786`` (``host:8786`` means ``tcp``).
    option : str
        How the message names the address (``--scheduler``, ``scheduler``).
    timeout : float, optional
        Seconds allowed in all (default :func:`connect_timeout`).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        One line naming ``option`` and the address: bad syntax, an unsupported scheme, a
        port out of range, ``tls://`` or ``wss://`` without the TLS certificates of the
        Dask configuration, no ``distributed`` package, a refused connection, no answer
        within the time, or an answer that is not a scheduler's.

    See Also
    --------
    moetheory.engine.verification.verify : calls it before it writes any report.

    Notes
    -----
    A TLS address needs ``distributed.comm.tls.ca-file`` (and a client certificate and key
    where the scheduler asks for one) in the Dask configuration, as :class:`distributed.Client`
    reads them. The check opens one connection, asks ``identity`` and closes it; the run's
    own client connects afterwards.

    Examples
    --------
    >>> check_scheduler("garbage")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --scheduler 'garbage': expected an address such as tcp://host:8786 (...)
    """
    scheme, host, port = _parse(address, option)
    where = f"{option} {address!r}"
    seconds = connect_timeout() if timeout is None else timeout
    try:
        from distributed import Security
    except ImportError:
        raise ValueError(
            f"{where}: needs dask.distributed: pip install 'moetheory[dask]'"
        ) from None
    try:
        security = Security()
        connection_args = security.get_connection_args("client")
    except Exception as exc:  # a bad file named in the Dask configuration
        raise ValueError(f"{where}: the Dask TLS configuration cannot be used ({exc})") from None
    if scheme in ("tls", "wss") and connection_args.get("ssl_context") is None:
        raise ValueError(
            f"{where}: TLS needs certificates; set distributed.comm.tls.ca-file (and "
            "distributed.comm.tls.client.cert and .key) in the Dask configuration"
        )
    try:  # a refused connection fails at once, not after the connect retries' timeout
        with socket.create_connection((host, port), timeout=seconds):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        raise ValueError(f"{where}: cannot connect ({reason})") from None
    full = address.strip() if "://" in address else f"tcp://{address.strip()}"
    reply = _ask(full, connection_args, seconds)
    error = reply.get("error")
    if isinstance(error, TimeoutError):
        raise ValueError(
            f"{where}: no answer from a Dask scheduler within {seconds:g} s (set "
            f"{TIMEOUT_VARIABLE} to wait longer)"
        )
    if error is not None:
        text = " ".join(str(error).split()) or type(error).__name__
        raise ValueError(f"{where}: cannot connect ({text})")
    answer = reply.get("answer")
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        raise ValueError(
            f"{where}: answered, but is not a Dask scheduler "
            f"({'a ' + kind if isinstance(kind, str) else 'unknown answer'})"
        )


def check_shippable(claims: Sequence[Claim], option: str = "scheduler") -> None:
    """Refuse to send a cluster's workers a claim whose check they cannot import.

    Parameters
    ----------
    claims : sequence of Claim
        The claims a run would send.
    option : str
        How the message names the scheduler option (``--scheduler``, ``scheduler``).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        One line naming the first claim that comes from a user's ``--checks`` file (its
        :attr:`~moetheory.engine.registry.Claim.provenance` is ``"file PATH"``).

    See Also
    --------
    moetheory.engine.usercode.load_user_checks : loads such a file.

    Notes
    -----
    A worker unpickles a check by its module's name, and a ``--checks`` file is a module
    only in the process that loaded it: every such claim would end ``error`` on the
    cluster, though it runs locally. The run is refused before it starts; the catalogue,
    the installed plugins and a ``--checks`` module that the workers can import are sent.

    Examples
    --------
    >>> from moetheory.engine.registry import load_checks, select_claims
    >>> load_checks()
    >>> check_shippable(select_claims(["cl.fig2"]))
    """
    for c in claims:
        if c.provenance.startswith("file "):
            raise ValueError(
                f"{option}: claim {c.id!r} comes from the --checks {c.provenance}, which the "
                f"cluster's workers cannot import; run it without {option}"
            )
