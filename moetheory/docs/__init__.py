r"""Generate the documentation's claim pages from a verification report.

The pages are a book of worked derivations, one chapter per paper
(:data:`moetheory.engine.papers.PAPERS`). A chapter is a short index -- the paper's citation
and a table of its sections with their verdict counts -- and has one page per section of the
paper (:func:`moetheory.engine.papers.section_of`): the section's setting and notation with
the paper's equations its claims name (numbered as the paper numbers them), its verdict
table, then each claim the section makes -- in the paper itself or in its authors' rebuttal
-- in the order a reader checks a proof:

1. the statement, typeset, with a link to its seed lines and a quote of the sentence or
   displayed equation that makes it;
2. the reading checked (the primary one when the check has several);
3. the derivation, step by step, ending in the certificate, in a block that folds;
4. the verdict and its one-line reason;
5. every statistical comparison as a table row (estimate, interval, n, claimed value,
   tolerance, :math:`\alpha`, rule, seed), a compact evidence table with the raw evidence as JSON,
   the
   verdict over the calibration seeds, and links to the claims it uses and that use it.

Every formula in the text of a report is typeset (:mod:`moetheory.engine._prose`, which
also gives the terminal its Unicode) and every text of a report is
escaped, so nothing a check writes is read as markup; every claim ID and equation a text
names is a link. Besides the paper pages it writes an index, a bibliography and one page per
seed document with numbered, linkable lines and sentences (``seed-002.html#L56``,
``seed-001.html#L3-s19``).

The pages are generated when the documentation is built (``docs/conf.py`` calls
:func:`build_pages`), from a verification run of the very code being documented, so they
cannot disagree with it and no machine-dependent digit is ever committed. They are a pure
function of the report (timings, environment and absolute paths excluded).

The package's modules, one job each: ``_names`` (page names, anchors, the run's settings),
``_markup`` (inline MyST, LaTeX, tables,
embedded derivations), ``_book`` (where every claim is, uses / used by, verdict histories,
the page being written), ``_equations`` (the papers' numbered equations, from the seeds),
``_notation`` (each section's setting and notation), ``_comparisons`` (the tables of
statistical comparisons), ``_evidence`` (evidence tables and files), ``_seeds`` (seed links,
quotes and pages), ``_figures`` (figures and captions), ``_claim`` (one claim), ``_pages``
(chapters, sections, index, bibliography), ``_build`` (the whole set, written),
``_examples`` (the example pages) and ``_cli`` (the command line); this module re-exports
their public names.

Command line::

    python -m moetheory.docs --out docs/claims            # verify (quick, seed 0), then write
    python -m moetheory.docs --report r.json --out docs/claims
    python -m moetheory.docs --report r.json --out docs/claims --check   # exit 1 if stale
"""

from __future__ import annotations

from moetheory.docs._build import build_pages, generate_pages, write_pages
from moetheory.docs._claim import render_claim
from moetheory.docs._cli import main
from moetheory.docs._evidence import evidence_files, render_evidence
from moetheory.docs._examples import EXAMPLES_DIR, build_examples, render_example_page
from moetheory.docs._figures import FIGURE_CAPTIONS, FIGURE_CLAIMS
from moetheory.docs._markup import _REPO_ROOT as _REPO_ROOT
from moetheory.docs._markup import _strip_paths as _strip_paths
from moetheory.docs._markup import _text as _text
from moetheory.docs._names import (
    EVIDENCE_DIR,
    GENERATE_JOBS,
    GENERATE_PROFILE,
    GENERATE_SEED,
    SEEDS_DIR,
    claim_anchor,
    claim_page_name,
    evidence_path,
    paper_page_name,
    section_page_name,
    seed_page_name,
)
from moetheory.docs._pages import (
    render_bibliography,
    render_index,
    render_paper_page,
    render_section_page,
)
from moetheory.docs._seeds import render_seed_text

__all__ = [
    "EVIDENCE_DIR",
    "EXAMPLES_DIR",
    "FIGURE_CAPTIONS",
    "FIGURE_CLAIMS",
    "GENERATE_JOBS",
    "GENERATE_PROFILE",
    "GENERATE_SEED",
    "SEEDS_DIR",
    "build_examples",
    "build_pages",
    "claim_anchor",
    "claim_page_name",
    "evidence_files",
    "evidence_path",
    "generate_pages",
    "main",
    "paper_page_name",
    "render_bibliography",
    "render_claim",
    "render_evidence",
    "render_example_page",
    "render_index",
    "render_paper_page",
    "render_section_page",
    "render_seed_text",
    "section_page_name",
    "seed_page_name",
    "write_pages",
]
