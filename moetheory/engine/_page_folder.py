"""A folder of generated pages: written in place, removing only what an earlier run wrote.

The claim pages (``python -m moetheory.docs``) and the ledger
(``python -m moetheory.engine.ledger``) write into a folder the user names. The pages a run
writes are listed in the folder's :data:`MANIFEST`; the next run removes the listed pages it
no longer generates and never touches another file, so ``--out docs`` cannot remove the
hand-written pages of ``docs/``.

Examples
--------
>>> import pathlib, tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     folder = pathlib.Path(tmp)
...     _ = (folder / "mine.md").write_text("kept")
...     _ = sync_pages({"a.md": "A", "b.md": "B"}, folder)
...     _ = sync_pages({"a.md": "A"}, folder)
...     sorted(p.name for p in folder.iterdir())
['.moetheory-pages', 'a.md', 'mine.md']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from moetheory.engine.report import OutputPathError, _shown

__all__ = ["MANIFEST", "check_page_folder", "stale_pages", "sync_pages"]

#: The file, in the folder, that lists the pages the last run wrote (one per line).
MANIFEST = ".moetheory-pages"


def check_page_folder(path: str | os.PathLike[str], option: str) -> Path:
    """Check, before any work, that pages can be written into the folder ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        The folder: an existing, writable directory, or one that can be created.
    option : str
        How the message names it (``--out``).

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    OutputPathError
        One line naming ``option`` and the path: not a directory, not writable, or under
        something that is not a directory.

    See Also
    --------
    sync_pages : writes the pages there.

    Notes
    -----
    A folder that does not exist is allowed when its nearest existing ancestor is a
    writable directory (:func:`sync_pages` creates it).

    Examples
    --------
    >>> check_page_folder("/dev/null", "--out")
    Traceback (most recent call last):
    ...
    moetheory.engine.report.OutputPathError: --out /dev/null: is not a directory
    """
    folder = Path(path)
    where = f"{option} {_shown(path)}"
    if folder.exists() and not folder.is_dir():
        raise OutputPathError(f"{where}: is not a directory")
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise OutputPathError(f"{where}: cannot be created, {_shown(existing)} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputPathError(f"{where}: cannot be written, {_shown(existing)} is not writable")
    return folder


def _listed(folder: Path) -> set[str]:
    """The pages the manifest lists, keeping only names inside ``folder``."""
    try:
        lines = (folder / MANIFEST).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return set()
    names = set()
    for line in lines:
        name = PurePosixPath(line.strip())
        if line.strip() and not name.is_absolute() and ".." not in name.parts:
            names.add(name.as_posix())
    return names


def stale_pages(pages: Mapping[str, str], folder: str | os.PathLike[str]) -> list[str]:
    """The pages :func:`sync_pages` would write or remove in ``folder``.

    Parameters
    ----------
    pages : mapping of str to str
        The text of each page, by page name relative to ``folder``.
    folder : str or os.PathLike
        The folder.

    Returns
    -------
    list of str
        The names of the pages missing or different there, and of the pages an earlier
        run listed that ``pages`` no longer holds and that are still there; sorted.

    See Also
    --------
    sync_pages : brings the folder up to date.

    Notes
    -----
    Read-only: the ``--check`` mode of the two generators.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = sync_pages({"a.md": "A"}, tmp)
    ...     stale_pages({"a.md": "A", "b.md": "B"}, tmp)
    ['b.md']
    """
    out = Path(folder)
    stale = {name for name, text in pages.items()
             if not (out / name).is_file() or (out / name).read_text(encoding="utf-8") != text}
    stale |= {name for name in _listed(out) - set(pages) if (out / name).is_file()}
    return sorted(stale)


def sync_pages(pages: Mapping[str, str], folder: str | os.PathLike[str]) -> list[Path]:
    """Write ``pages`` into ``folder``, removing the pages an earlier run wrote there only.

    Parameters
    ----------
    pages : mapping of str to str
        The text of each page, by page name relative to ``folder`` (``evidence/x.json``
        allowed).
    folder : str or os.PathLike
        The folder, created if missing.

    Returns
    -------
    list of Path
        The paths of ``pages``, sorted by name.

    See Also
    --------
    check_page_folder : checks the folder first.
    stale_pages : what this would change.

    Notes
    -----
    Unchanged pages keep their modification times (an incremental Sphinx build does not
    re-read them). The pages an earlier run listed in :data:`MANIFEST` that ``pages`` no
    longer holds are removed; no other file is touched, and a listed name that leaves the
    folder (absolute, or with ``..``) is ignored.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     [p.name for p in sync_pages({"b.md": "B", "a.md": "A"}, tmp)]
    ['a.md', 'b.md']
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name in sorted(_listed(out) - set(pages)):
        if (out / name).is_file():
            (out / name).unlink()
    written = []
    for name, text in sorted(pages.items()):
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    (out / MANIFEST).write_text("".join(f"{name}\n" for name in sorted(pages)),
                                encoding="utf-8")
    return written
