"""Names of the generated pages and anchors, and the settings of the documentation's run.

Every link the pages make to a claim, a section, a chapter, a seed document or an evidence
file is built from these names, so a link cannot disagree with where its target is written.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from moetheory.engine.papers import Paper, Section, paper_of, section_of

__all__ = [
    "EVIDENCE_DIR",
    "GENERATE_JOBS",
    "GENERATE_PROFILE",
    "GENERATE_SEED",
    "SEEDS_DIR",
    "claim_anchor",
    "claim_page_name",
    "evidence_path",
    "paper_page_name",
    "section_page_name",
    "seed_page_name",
]

#: Folder, inside the claim pages' folder, of the per-claim raw-evidence JSON files.
EVIDENCE_DIR = "evidence"

#: The verification run the pages come from.
GENERATE_PROFILE = "quick"
GENERATE_SEED = 0
GENERATE_JOBS = 2

#: The seed documents, vendored beside the docs so every claim can link to its lines.
SEEDS_DIR = Path(__file__).resolve().parents[2] / "docs" / "seeds"


def claim_anchor(claim_id: str) -> str:
    """The HTML anchor of a claim's heading (the ``docutils`` slug of its ID).

    Parameters
    ----------
    claim_id : str
        A claim ID such as ``"pcr.pde.cosine"``.

    Returns
    -------
    str
        Lower-case letters, digits and hyphens, as ``docutils.nodes.make_id`` makes them.

    Raises
    ------
    ValueError
        If the ID does not start with a letter (it could not be an anchor).

    See Also
    --------
    claim_page_name : the page holding the anchor.

    Notes
    -----
    The slug is the one ``docutils.nodes.make_id`` makes from the heading, so a link
    ``<page>.html#<anchor>`` written here reaches the heading Sphinx builds (a test compares
    the two for every registered claim).

    Examples
    --------
    >>> claim_anchor("pcr.pde.cosine")
    'pcr-pde-cosine'
    >>> claim_anchor("cl.fig4-5.corrected")
    'cl-fig4-5-corrected'
    """
    slug = re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")
    if not slug or not slug[0].isalpha():
        raise ValueError(f"claim_id must start with a letter, got {claim_id!r}")
    return slug


def seed_page_name(seed_file: str) -> str:
    """File name of the page showing one seed document's text with numbered lines.

    Parameters
    ----------
    seed_file : str
        A seed document's file name, ``NNN_hash.txt``.

    Returns
    -------
    str
        ``"seed-NNN.md"``.

    Raises
    ------
    ValueError
        If the name has no ``NNN_`` prefix.

    See Also
    --------
    render_seed_text : the page's content.

    Notes
    -----
    Claims link to ``seed-NNN.html#L<line>``; the number is the seed document's prefix.

    Examples
    --------
    >>> seed_page_name("002_ed39350ac6d6e1c0.txt")
    'seed-002.md'
    """
    stem = seed_file.split("_", 1)[0]
    if not stem:
        raise ValueError(f"seed_file must look like 'NNN_hash.txt', got {seed_file!r}")
    return f"seed-{stem}.md"


def paper_page_name(paper: Paper | None) -> str:
    """File name of a paper's chapter index (``other.md`` for claims of no known paper).

    Parameters
    ----------
    paper : Paper or None
        The paper.

    Returns
    -------
    str
        ``"<citation key>.md"``.

    See Also
    --------
    render_paper_page : the chapter's content.
    section_page_name : the pages of the chapter's sections.
    moetheory.engine.papers.PAPERS : the papers.

    Notes
    -----
    The citation key names the page, so a chapter's URL does not change when its title does.

    Examples
    --------
    >>> from moetheory.engine.papers import PAPERS
    >>> paper_page_name(PAPERS[0])
    'jacobs1991adaptive.md'
    """
    return f"{paper.key}.md" if paper is not None else "other.md"


def evidence_path(claim_id: str) -> str:
    """Path, relative to the claim pages, of the JSON file holding a claim's raw evidence.

    Parameters
    ----------
    claim_id : str
        A claim ID.

    Returns
    -------
    str
        ``"evidence/<anchor>.json"`` (the anchor is :func:`claim_anchor`'s).

    Raises
    ------
    ValueError
        If the ID cannot be an anchor (see :func:`claim_anchor`).

    See Also
    --------
    evidence_files : the files' contents.

    Notes
    -----
    Raw evidence (certificates, per-replicate statistics) can be large; kept out of the
    pages, it leaves every page small enough to load quickly, while the file a page links
    holds every number.

    An anchor longer than :data:`_LONGEST_STEM` characters (a claim ID of hundreds of
    characters) is cut and ends with a hash of the whole ID instead, so its file name stays
    within the 255 bytes a file system allows and two IDs never share a file.

    Examples
    --------
    >>> evidence_path("pcr.pde.cosine")
    'evidence/pcr-pde-cosine.json'
    >>> len(evidence_path("a" * 300))
    214
    """
    stem = claim_anchor(claim_id)
    if len(stem) > _LONGEST_STEM:
        digest = hashlib.sha256(claim_id.encode("utf-8", "backslashreplace")).hexdigest()
        stem = f"{stem[:_LONGEST_STEM - 17]}-{digest[:16]}"
    return f"{EVIDENCE_DIR}/{stem}.json"


#: The longest evidence file name's stem (an anchor is ASCII: one byte a character).
_LONGEST_STEM = 200


def section_page_name(paper: Paper | None, section: Section | None) -> str:
    """File name of the page of one section of a paper's chapter.

    Parameters
    ----------
    paper : Paper or None
        The paper; ``None`` for claims of no known paper.
    section : Section or None
        One of ``paper.parts``; ignored when ``paper`` is ``None``.

    Returns
    -------
    str
        ``"<citation key>-<section key>.md"``; ``"other.md"`` without a paper.

    Raises
    ------
    ValueError
        If a paper is given without a section.

    See Also
    --------
    claim_page_name : the page of one claim.
    paper_page_name : the chapter index listing the section pages.

    Notes
    -----
    Keys, not titles, name the pages, so a URL survives a reworded title.

    Examples
    --------
    >>> from moetheory.engine.papers import PAPERS
    >>> section_page_name(PAPERS[2], PAPERS[2].parts[0])
    'li2025continual-setup.md'
    """
    if paper is None:
        return "other.md"
    if section is None:
        raise ValueError(f"section must be one of the sections of {paper.key}, got None")
    return f"{paper.key}-{section.key}.md"


def claim_page_name(claim_id: str, seed_file: str) -> str:
    """File name of the page holding a claim's section (its heading's anchor is there).

    Parameters
    ----------
    claim_id : str
        The claim's ID.
    seed_file : str
        The seed document stating it (its paper's chapter holds it).

    Returns
    -------
    str
        The page of the section of the paper the claim belongs to
        (:func:`moetheory.engine.papers.section_of`), ``"other.md"`` without a known paper.

    See Also
    --------
    claim_anchor : the anchor on that page; a link is ``<page>.html#<anchor>``.
    section_page_name : the page of a section.

    Notes
    -----
    Every link to a claim is made from this name, so links cannot disagree with where a
    claim is written. The chapter index also forwards an old link
    ``<chapter>.html#<anchor>`` to the claim's page.

    Examples
    --------
    >>> claim_page_name("pcr.pde.cosine", "002_ed39350ac6d6e1c0.txt")
    'nguyen2025cosine-routers-pde.md'
    >>> claim_page_name("cl.lemma7.step-size", "003_3078ccb5100b14b7.txt")
    'li2025continual-proofs.md'
    """
    paper = paper_of(seed_file)
    if paper is None:
        return "other.md"
    return section_page_name(paper, section_of(claim_id, paper))


def _page_of(entry: Mapping[str, Any]) -> str:
    return claim_page_name(entry["id"], entry.get("seed_file", ""))


def _plain_file_name(name: object) -> bool:
    """Whether a name read from a report can be looked up as a file of one folder: a
    string with no folder part (no ``/``, ``\\``, NUL), not ``.`` or ``..``, at most 255
    bytes in UTF-8 (longer, the system refuses it with an error)."""
    if not isinstance(name, str) or name in ("", ".", "..") or any(c in name for c in "/\\\0"):
        return False
    try:
        return len(name.encode("utf-8")) <= 255
    except UnicodeEncodeError:
        return False
