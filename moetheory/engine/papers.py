"""The papers behind the seed documents, for citations and the bibliography.

Each seed document belongs to one paper: the rebuttal (seed 000) belongs to the paper it
defends (seed 002), the review summary (seed 001) to the paper it reviews. The documentation
is organised by paper, so a paper's claims sit in one chapter whatever document states them;
a chapter has one page per :class:`Section` of the paper (:func:`section_of`).

Examples
--------
>>> paper_of("000_7b6465990ad3b04b.txt").key
'nguyen2025cosine'
>>> paper_of("000_7b6465990ad3b04b.txt") is paper_of("002_ed39350ac6d6e1c0.txt")
True
>>> section_of("cl.lemma7.step-size", paper_of("003_3078ccb5100b14b7.txt")).key
'proofs'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["PAPERS", "Paper", "Section", "paper_of", "section_of"]


@dataclass(frozen=True)
class Section:
    r"""One section of a paper, as the documentation groups the paper's claims.

    Parameters
    ----------
    key : str
        Short name, unique within the paper; the section's page is ``<paper key>-<key>``.
    title : str
        Title, in the paper's words.
    where : str
        Where it is in the paper, e.g. ``"§4"`` or ``"Appendices B–H"``.
    patterns : tuple of str
        Regular expressions; a claim whose ID one of them matches at its start belongs to
        the section. Empty for the paper's catch-all section.

    Raises
    ------
    ValueError
        If ``key`` is not lower-case letters, digits and hyphens.

    See Also
    --------
    section_of : the section a claim belongs to.
    Paper : the paper holding the sections.

    Notes
    -----
    Claims are assigned by ID, not by the catalogue's coarser ``section`` field, so a page
    holds one part of the paper (a group of lemmas, the experiments) whatever catalogue row
    or check module states the claim.

    Examples
    --------
    >>> s = Section("lemmas", "Lemmas", "Appendix", (r"cl\.lemma\d+\.",))
    >>> s.matches("cl.lemma7.step-size"), s.matches("cl.prop1.convergence")
    (True, False)
    """

    key: str
    title: str
    where: str = ""
    patterns: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9-]*", self.key):
            raise ValueError(
                f"key must be lower-case letters, digits and hyphens, got {self.key!r}"
            )

    def matches(self, claim_id: str) -> bool:
        r"""Whether one of the section's patterns matches the start of ``claim_id``.

        Examples
        --------
        >>> Section("x", "X", "", (r"a\.",)).matches("a.b")
        True
        """
        return any(re.match(p, claim_id) for p in self.patterns)


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
    sections : tuple of Section
        The paper's sections, in the paper's order (see :func:`section_of`). Without any,
        the paper has the single section :attr:`parts` makes up.

    Raises
    ------
    ValueError
        If two sections have the same key.

    See Also
    --------
    paper_of : the paper a seed document belongs to.
    section_of : the section of the paper a claim belongs to.
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
    >>> [s.key for s in p.parts]
    ['claims']
    """

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    arxiv: str = ""
    doi: str = ""
    seeds: tuple[tuple[str, str], ...] = ()
    sections: tuple[Section, ...] = ()

    def __post_init__(self) -> None:
        keys = [s.key for s in self.sections]
        if len(set(keys)) != len(keys):
            raise ValueError(f"sections must have distinct keys, got {keys}")

    @property
    def parts(self) -> tuple[Section, ...]:
        """The sections, or one section ``"claims"`` holding every claim when none is given.

        Examples
        --------
        >>> [s.key for s in PAPERS[2].parts][:2]
        ['setup', 'training']
        """
        return self.sections or (Section("claims", "Claims"),)

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
        sections=(
            Section(
                "error-functions",
                "Making associative learning competitive: the error functions and their "
                "gradients",
                "§1–2, eqs. 1.1–1.5",
                (r"j91\.(grad|loss|adapt-speed|cooperation|gate-gradient|softmax-weighting"
                 r"|whole-output|symmetry|equal-proportions)\b",),
            ),
            Section(
                "vowels",
                "Application to multi-speaker vowel recognition",
                "§3–4",
                (r"j91\.(vowel|specialization|linear-boundary)\b",),
            ),
            Section(
                "efficiency",
                "Computational cost, as the review reads it",
                "the review summary",
                (r"j91\.(dense-updates|flops)\b",),
            ),
        ),
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
        sections=(
            Section(
                "routers-pde",
                "Cosine routers and the parameter-interaction PDE",
                "§1, eq. (4); §3",
                (r"pcr\.(pde|experts\.param-count|stability)\b",),
            ),
            Section(
                "identifiability",
                "Strong identifiability of one-layer experts",
                "§3, Definition 1 and its example; the rebuttal",
                (r"pcr\.ident\.(?!two-layer)",),
            ),
            Section(
                "identifiability-two-layer",
                "Strong identifiability of two-layer experts",
                "the rebuttal",
                (r"pcr\.ident\.two-layer",),
            ),
            Section(
                "voronoi-losses",
                "Identifiability of the mixture and Voronoi losses",
                "(A.3), eq. (5); the rebuttal",
                (r"pcr\.(identifiable|voronoi|sparse\.(partition|voronoi-loss))\b",),
            ),
            Section(
                "rates",
                "Convergence rates of parameter and expert estimation",
                "Theorems 1–4 and their implications; the rebuttal",
                (r"pcr\.rates\.(?!top)", r"pcr\.(poly-expert|inference|sample-size)\b"),
            ),
            Section(
                "rates-sparse",
                "Convergence rates under the Top-K sparse gate",
                "the rebuttal's Top-K setting",
                (r"pcr\.rates\.top",),
            ),
            Section(
                "rebuttal",
                "Further identities and arithmetic of the paper and the rebuttal",
                "§1–2; the rebuttal",
                (r"pcr\.(consistency|eq6|experts|routers|softmax|sparse)\b",),
            ),
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
        sections=(
            Section(
                "setup",
                "Problem setting and the design of the MoE model",
                "§3, Algorithm 1",
                (r"cl\.(setup|update|loss|aux-loss|moe|notation|router)\b",),
            ),
            Section(
                "training",
                "Theoretical results on MoE training: the experts converge and specialise",
                "§4, Propositions 1–2",
                (r"cl\.prop[12]\.",),
            ),
            Section(
                "termination",
                "Theoretical results on MoE training: terminating the gate's updates",
                "§4, Proposition 3",
                (r"cl\.prop3\.",),
            ),
            Section(
                "forgetting",
                "Theoretical results on forgetting and generalization: M > N",
                "§5, Proposition 4, Theorem 1",
                (r"cl\.(prop4|thm1)\b",),
            ),
            Section(
                "fewer-experts",
                "Theoretical results on forgetting and generalization: M < N and the number of "
                "experts",
                "§5, Theorem 2",
                (r"cl\.(thm\d+|more-experts)\b",),
            ),
            Section(
                "experiments",
                "Experiments",
                "§6, Appendix A",
                (r"cl\.(fig|appendix-a)",),
            ),
            Section(
                "lemmas",
                "The smooth router and the analysis of the losses: Lemmas 1–6",
                "Appendices B–D",
                (r"cl\.(lemma[1-6]|corollary\d+)\b",),
            ),
            Section(
                "proofs",
                "The proofs of Propositions 1–4: Lemmas 7–12",
                "Appendices E–H",
                (r"cl\.lemma([7-9]|1[0-2])\b",),
            ),
            Section(
                "proofs-late",
                "The proofs of Propositions 1–4: Lemmas 13–16 and the proofs' own steps",
                "Appendices E–H",
                (r"cl\.(lemma\d\d+|proofs)\b",),
            ),
        ),
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


def section_of(claim_id: str, paper: Paper) -> Section:
    """The section of ``paper`` whose page shows the claim ``claim_id``.

    Parameters
    ----------
    claim_id : str
        A claim ID, e.g. ``"cl.prop2.router-learning"``.
    paper : Paper
        The paper the claim belongs to (see :func:`paper_of`).

    Returns
    -------
    Section
        The first of :attr:`Paper.parts` with a pattern matching the ID; the last one when
        none matches.

    See Also
    --------
    Section.matches : the rule.
    paper_of : the paper of a seed document.

    Notes
    -----
    A claim no pattern matches still gets a page (the last section's), so a plugin's or a
    new claim never breaks the documentation; the test suite requires every claim of the
    package to be matched by a pattern.

    Examples
    --------
    >>> paper = paper_of("002_ed39350ac6d6e1c0.txt")
    >>> section_of("pcr.rates.cosine-slow", paper).title
    'Convergence rates of parameter and expert estimation'
    >>> section_of("pcr.no-such-claim", paper).key
    'rebuttal'
    """
    parts = paper.parts
    return next((s for s in parts if s.matches(claim_id)), parts[-1])
