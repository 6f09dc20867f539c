"""Signatures that Sphinx's Python domain can parse, so they read as Python.

A dataclass field with a ``default_factory`` has the default ``<factory>`` in its class's
signature, which is not Python: the Python domain then cannot parse the signature at all and
shows it as words split at every comma, its qualified annotations left as autodoc wrote them
(``dict[str,`` and ``~typing.Any]`` as two parameters). This extension writes such a default
as ``...`` before the domain reads the signature, so that it is parsed like any other: each
annotation shortened to its name and linked.
"""

from __future__ import annotations

from typing import Any

__all__ = ["clean_signature", "setup"]


def clean_signature(text: str) -> str:
    """``text`` with every ``<factory>`` default written as ``...``.

    >>> clean_signature("(x: dict[str, ~typing.Any] = <factory>, y: int = 0)")
    '(x: dict[str, ~typing.Any] = ..., y: int = 0)'
    """
    return text.replace("<factory>", "...")


def _process(app: Any, what: str, name: str, obj: Any, options: Any, signature: str | None,
             return_annotation: str | None) -> tuple[str | None, str | None]:
    return (clean_signature(signature) if signature else signature, return_annotation)


def setup(app: Any) -> dict[str, Any]:
    app.connect("autodoc-process-signature", _process)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
