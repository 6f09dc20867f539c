"""The papers behind the seed documents, for citations and the bibliography.

Each seed document belongs to one paper: the rebuttal (seed 000) belongs to the paper it
defends (seed 002), the review summary (seed 001) to the paper it reviews. The documentation
is organised by paper, so a paper's claims sit on one page whatever document states them.

Examples
--------
>>> paper_of("000_7b6465990ad3b04b.txt").key
'nguyen2025cosine'
>>> paper_of("000_7b6465990ad3b04b.txt") is paper_of("002_ed39350ac6d6e1c0.txt")
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PAPERS", "Paper", "paper_of"]


@dataclass(frozen=True)
class Paper:
    """One paper: its bibliographic record and the seed documents that state its claims.

    Parameters
    ----------
    key : str
        Citation key, also the name of the paper's documentation page.
    authors : tuple of str
        Authors in the paper's order, "Given Family".
    title, venue : str
        Title and venue (journal with volume and pages, or conference).
    year : int
        Year of the venue.
    arxiv : str
        arXiv identifier, empty when there is none.
    doi : str
        DOI, empty when there is none.
    seeds : tuple of (str, str)
        ``(seed_file, role)`` pairs, e.g. ``("000_….txt", "the authors' rebuttal")``.

    See Also
    --------
    paper_of : the paper a seed document belongs to.
    PAPERS : the papers of the seed documents.

    Notes
    -----
    Frozen: a paper is a value, compared and hashed by its fields. The documentation cites
    it as :attr:`short` (author-year) and lists :meth:`citation` in the bibliography.

    Examples
    --------
    >>> p = Paper("doe2020", ("Jane Doe", "John Roe"), "A Title", "A Venue", 2020)
    >>> p.short
    'Doe (2020)'
    >>> p.citation()
    'Jane Doe, John Roe (2020). A Title. A Venue.'
    """

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    arxiv: str = ""
    doi: str = ""
    seeds: tuple[tuple[str, str], ...] = ()

    @property
    def short(self) -> str:
        """Author-year label, e.g. ``"Jacobs et al. (1991)"``.

        Examples
        --------
        >>> PAPERS[0].short
        'Jacobs et al. (1991)'
        """
        family = self.authors[0].split()[-1]
        return f"{family} et al. ({self.year})" if len(self.authors) > 2 else (
            f"{family} ({self.year})"
        )

    def citation(self) -> str:
        """The full reference as plain text (authors, year, title, venue, arXiv, DOI).

        Examples
        --------
        >>> PAPERS[0].citation().startswith("Robert A. Jacobs, Michael I. Jordan")
        True
        """
        parts = [f"{', '.join(self.authors)} ({self.year}). {self.title}. {self.venue}."]
        if self.arxiv:
            parts.append(f"arXiv:{self.arxiv}.")
        if self.doi:
            parts.append(f"doi:{self.doi}.")
        return " ".join(parts)


PAPERS: tuple[Paper, ...] = (
    Paper(
        key="jacobs1991adaptive",
        authors=("Robert A. Jacobs", "Michael I. Jordan", "Steven J. Nowlan",
                 "Geoffrey E. Hinton"),
        title="Adaptive Mixtures of Local Experts",
        venue="Neural Computation 3(1), 79–87",
        year=1991,
        doi="10.1162/neco.1991.3.1.79",
        seeds=(("001_4a7126a84a0d22c9.txt", "a review summary of the paper"),),
    ),
    Paper(
        key="nguyen2025cosine",
        authors=("Huy Nguyen", "Pedram Akbarian", "Trang Pham", "Trang Nguyen",
                 "Shujian Zhang", "Nhat Ho"),
        title="Statistical Advantages of Perturbing Cosine Router in Mixture of Experts",
        venue="International Conference on Learning Representations (ICLR 2025)",
        year=2025,
        arxiv="2405.14131",
        seeds=(
            ("002_ed39350ac6d6e1c0.txt", "the paper"),
            ("000_7b6465990ad3b04b.txt", "the authors' rebuttal to the reviews"),
        ),
    ),
    Paper(
        key="li2025continual",
        authors=("Hongbo Li", "Sen Lin", "Lingjie Duan", "Yingbin Liang", "Ness B. Shroff"),
        title="Theory on Mixture-of-Experts in Continual Learning",
        venue="International Conference on Learning Representations (ICLR 2025)",
        year=2025,
        arxiv="2406.16437",
        seeds=(("003_3078ccb5100b14b7.txt", "a Chinese machine translation of the paper"),),
    ),
)

_BY_SEED = {seed: paper for paper in PAPERS for seed, _ in paper.seeds}


def paper_of(seed_file: str) -> Paper | None:
    """The paper a seed document belongs to, or ``None`` for an unknown document.

    Parameters
    ----------
    seed_file : str
        A seed document's file name, e.g. ``"002_ed39350ac6d6e1c0.txt"``.

    Returns
    -------
    Paper or None
        The paper whose ``seeds`` list the document.

    See Also
    --------
    PAPERS : every paper, in the order of the documentation.

    Notes
    -----
    A rebuttal or a review belongs to the paper it is about, so all of a paper's claims are
    found under one paper whichever document states them.

    Examples
    --------
    >>> paper_of("003_3078ccb5100b14b7.txt").arxiv
    '2406.16437'
    >>> paper_of("no-such.txt") is None
    True
    """
    return _BY_SEED.get(seed_file)
