"""The claim registry: every claim of the catalogue, and the check that decides it.

Checks register themselves with the :func:`claim` decorator. Catalogued claims that no
module implements yet are registered as placeholders whose verdict is ``inconclusive``
with the reason "not implemented", so a report always shows the whole catalogue.
"""

from __future__ import annotations

import fnmatch
import importlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from moetheory.engine.catalogue import (
    CATALOGUE,
    ORIGINS,
    ClaimSpec,
    Source,
    SourcesLike,
    catalogue_spec,
    normalise_sources,
)
from moetheory.engine.context import CheckContext
from moetheory.engine.verdicts import Outcome, Verdict

__all__ = [
    "BUILTIN_FAMILY",
    "CHECK_MODULES",
    "ENTRY_POINT_GROUP",
    "KINDS",
    "CheckFunction",
    "Claim",
    "add_user_claims",
    "claim",
    "family_size",
    "get_claim",
    "load_checks",
    "registered",
    "select_claims",
    "unregister",
    "user_code",
]

CheckFunction = Callable[[CheckContext], Outcome]

#: ``exact`` checks decide by proof or counterexample; ``statistical`` checks decide by a
#: calibrated test and share the run's family-wise error level.
KINDS: tuple[str, ...] = ("exact", "statistical")

#: The packages of ``proofs_checks`` that hold the package's own checks, one per paper; each
#: imports its modules, one per section of the paper.
CHECK_MODULES: tuple[str, ...] = (
    "proofs_checks.nguyen2025cosine",
    "proofs_checks.jacobs1991adaptive",
    "proofs_checks.li2025continual",
)

#: Entry-point group through which other packages add claims.
ENTRY_POINT_GROUP = "moetheory.checks"

#: The family of the package's own claims (those of :data:`CHECK_MODULES` and the
#: catalogue). Every other claim's family is the top-level package of its check's module,
#: so each plugin shares its own family-wise error level among its own claims only.
BUILTIN_FAMILY = "builtin"

#: What a claim ID may contain: no spaces and no shell-pattern characters (``*?[]``),
#: so that ``--only ID`` always selects exactly that claim.
_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")


@dataclass(frozen=True)
class Claim:
    """A registered claim and its check.

    Attributes
    ----------
    id, statement, seed_files, section
        As in the catalogue (or as given, for a claim the package adds).
    reading : str
        The precise reading of the statement that the check decides (the primary one;
        further readings come back as :class:`~moetheory.engine.verdicts.Reading` entries).
    kind : {"exact", "statistical"}
        How the verdict is reached.
    check : callable
        ``check(ctx) -> Outcome``.
    implemented : bool
        False for a catalogue placeholder.
    sources : tuple of Source
        Where the statement stands in the seeds (file and 1-based lines).
    covers : tuple of str
        The keys of ``shared/audit-rows.md`` this claim checks (empty for claims found by
        the package's own read).
    origin : {"seed", "package"}
        ``package`` for a statement the package adds (never reported as a seed's error).
    statement_latex : str
        The typeset statement (prose with ``$...$`` maths); empty when none is given.
    provenance : str
        Where the claim comes from: ``"catalogue"`` (the package's own claims), ``"file
        PATH"`` or ``"module NAME"`` (a user's ``--checks`` file or module, see
        :func:`user_code`), else ``"module NAME"`` of its check. Reports record it.
    family : str
        :data:`BUILTIN_FAMILY` for the package's own claims, else the top-level package of
        the plugin that registered the claim. Statistical claims share the family-wise
        error level within their family only.

    See Also
    --------
    claim : registers one.
    get_claim, registered, select_claims : look claims up.

    Notes
    -----
    Frozen: a registration is never changed, only replaced by re-registering the same check
    (a reloaded module) or removed with :func:`unregister` (claims outside the catalogue).

    Examples
    --------
    >>> load_checks()
    >>> c = get_claim("cl.fig2")
    >>> c.kind, c.family, c.implemented
    ('statistical', 'builtin', True)
    """

    id: str
    statement: str
    seed_files: tuple[str, ...]
    section: str
    reading: str
    kind: str
    check: CheckFunction
    implemented: bool = True
    sources: tuple[Source, ...] = ()
    covers: tuple[str, ...] = ()
    origin: str = "seed"
    family: str = BUILTIN_FAMILY
    statement_latex: str = ""
    provenance: str = "catalogue"

    @property
    def seed_file(self) -> str:
        """The primary seed file."""
        return self.seed_files[0] if self.seed_files else ""

    def _repr_markdown_(self) -> str:
        """The claim in a notebook: ID, kind, typeset statement, reading, seed lines."""
        from moetheory.engine.display import claim_card

        return claim_card(_display_record(self)).markdown()

    def _repr_html_(self) -> str:
        """The claim in a notebook, as escaped HTML with MathJax maths."""
        from moetheory.engine.display import claim_card

        return claim_card(_display_record(self)).html()


def _display_record(c: Claim) -> dict[str, object]:
    return {
        "id": c.id, "statement": c.statement, "statement_latex": c.statement_latex,
        "reading": c.reading, "kind": c.kind, "section": c.section, "origin": c.origin,
        "implemented": c.implemented, "sources": [src.as_json() for src in c.sources],
    }


_REGISTRY: dict[str, Claim] = {}


def claim(
    claim_id: str,
    *,
    reading: str | None = None,
    kind: str = "exact",
    statement: str | None = None,
    seed_files: Iterable[str] | None = None,
    section: str | None = None,
    sources: SourcesLike | None = None,
    covers: Iterable[str] | None = None,
    origin: str | None = None,
    statement_latex: str | None = None,
) -> Callable[[CheckFunction], CheckFunction]:
    """Register ``check(ctx) -> Outcome`` as the check of ``claim_id``.

    Parameters
    ----------
    claim_id : str
        The claim's ID (letters, digits, ``._+-``; a plugin's IDs start with its package).
    reading : str, optional
        The precise reading the check decides (non-empty). Required for the package's own
        claims; a user's claim defaults to its ``statement``.
    kind : {"exact", "statistical"}
        How the verdict is reached.
    statement : str, optional
        What the claim says: required outside the catalogue.
    seed_files, section : optional
        Default to the catalogue's for a catalogued ID. The package's own claims outside
        the catalogue must give them; a user's claim defaults to the file of its check
        (``seed_files``) and the check's module (``section``).
    sources : dict of str to list of int, optional
        ``{seed_file: [1-based lines]}`` where the statement stands.
    covers : iterable of str, optional
        Audit-row keys (such as ``"003-17"``) the check covers.
    origin : {"seed", "package"}, optional
        ``"package"`` for statements the package adds.
    statement_latex : str, optional
        Typeset statement (Markdown prose, every formula inside ``$...$``); defaults to
        the catalogue's.

    Returns
    -------
    callable
        The decorator; it registers the function and returns it unchanged.

    Raises
    ------
    ValueError
        For a malformed ID, an unknown ``kind`` or ``origin``, an empty ``reading``, a string
        where a list is expected, a missing statement/seed files/section outside the
        catalogue, a plugin taking a catalogued ID, or an ID registered twice with
        different checks.
    TypeError
        If the decorated object is not callable.

    See Also
    --------
    moetheory.engine.verdicts.Outcome : what the check returns.

    Notes
    -----
    A user's claim (a check outside this package and its ``proofs_checks``) needs only its
    ID and ``statement``: ``@claim("mine.x", statement="...")``. The package's own claims
    keep requiring their ``reading`` and, outside the catalogue, their seed files and
    section.

    What a claim says stands beside its check: every claim gives its ``statement`` (and,
    where it has mathematics, its ``statement_latex``), its ``sources`` and ``covers``. For
    a catalogued ID, ``seed_files`` and ``section`` default to the catalogue's. A claim that
    extends a catalogued one (``<id>.corrected``, ``<id>.<step>``), registered after it,
    inherits its seed files, section and sources; its origin defaults to ``"package"`` when
    its ID ends in ``.corrected``, to the extended claim's otherwise, and to ``"seed"``.

    ``statement_latex`` is the typeset statement (Markdown prose, every formula inside
    ``$...$``). A check's own ``Outcome.statement_latex`` takes precedence in reports.

    Examples
    --------
    >>> @claim("example.one-plus-one", reading="in the integers",
    ...        statement="1 + 1 = 2", seed_files=["none"], section="Examples")
    ... def _check(ctx):
    ...     return Outcome(Verdict.PROVED if 1 + 1 == 2 else Verdict.REFUTED, "arithmetic")
    >>> get_claim("example.one-plus-one").kind
    'exact'
    >>> unregister("example.one-plus-one")
    """
    _check_id(claim_id)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if isinstance(seed_files, str | bytes):
        raise ValueError(
            f"claim {claim_id!r}: seed_files must be a list of file names, not a string; "
            f"write seed_files=[{seed_files!r}]"
        )
    if reading is not None and not (isinstance(reading, str) and reading):
        raise ValueError("reading must state the precise reading the check decides")
    spec = catalogue_spec(claim_id)
    parent = None if spec is not None else _parent_claim(claim_id)
    if statement is None and spec is None:
        raise ValueError(
            f"claim {claim_id!r} is not in the catalogue: pass statement=... "
            "(and seed_files=..., section=... unless it extends a catalogued claim)"
        )
    base = spec or parent
    files = tuple(seed_files) if seed_files is not None else (base.seed_files if base else ())
    sect = section or (base.section if base else "")
    srcs = (normalise_sources(sources) if sources is not None
            else getattr(parent, "sources", ()))
    if isinstance(covers, str):
        raise ValueError(f"claim {claim_id!r}: covers must be a list of audit-row keys")
    cov = tuple(covers) if covers is not None else ()
    if spec is None and claim_id.endswith(".corrected"):
        default_origin = "package"
    else:
        default_origin = getattr(parent, "origin", "seed")
    orig = origin or default_origin
    if statement_latex is not None and (
        not isinstance(statement_latex, str) or statement_latex.count("$") % 2
    ):
        raise ValueError(
            f"claim {claim_id!r}: statement_latex must be a str with balanced $...$ maths"
        )
    latex = statement_latex or ""
    if orig not in ORIGINS:
        raise ValueError(f"claim {claim_id!r}: origin must be one of {ORIGINS}, got {orig!r}")

    def decorator(func: CheckFunction) -> CheckFunction:
        if not callable(func):
            raise TypeError(f"claim {claim_id!r}: @claim decorates a function check(ctx)")
        loading = _LOADING[-1] if _LOADING else None
        if loading is not None:
            _refuse_user_id(claim_id, spec is not None or parent is not None)
            fam, provenance = loading.family, loading.provenance
        else:
            fam = _family_of(func)
            provenance = ("catalogue" if fam == BUILTIN_FAMILY
                          else f"module {getattr(func, '__module__', None) or '__main__'}")
        own = _user_defaults(claim_id, func, fam, reading, files, sect, statement)
        if spec is not None and fam != BUILTIN_FAMILY:
            raise ValueError(
                f"claim {claim_id!r} is a catalogued claim of moetheory; a plugin "
                f"({func.__module__}) must register its own ID, e.g. '{fam}.{claim_id}'"
            )
        if statement is None:
            raise ValueError(
                f"claim {claim_id!r}: pass statement=... (what a claim says stands beside "
                "its check)"
            )
        old = _REGISTRY.get(claim_id)
        if old is not None and old.implemented and not _same_check(old.check, func):
            raise ValueError(
                f"claim {claim_id!r} is registered twice "
                f"({old.check.__module__}.{old.check.__qualname__} and "
                f"{func.__module__}.{func.__qualname__})"
            )
        _REGISTRY[claim_id] = Claim(
            id=claim_id,
            statement=statement or "",
            seed_files=own[1],
            section=own[2],
            reading=own[0],
            kind=kind,
            check=func,
            sources=srcs,
            covers=cov,
            origin=orig,
            family=fam,
            statement_latex=latex,
            provenance=provenance,
        )
        if loading is not None:
            loading.ids.append(claim_id)
        return func

    return decorator


@dataclass
class _UserCode:
    """A user's file or module being imported: what its claims are told and what it
    registered."""

    provenance: str
    family: str
    ids: list[str]


#: The user's files or modules being imported, innermost last (see :func:`user_code`).
_LOADING: list[_UserCode] = []


def _refuse_user_id(claim_id: str, catalogued: bool) -> None:
    """A user's file takes no catalogued ID, extends none, and replaces no claim."""
    if catalogued:
        raise ValueError(
            f"claim {claim_id!r} is or extends a catalogued claim of moetheory; a user's "
            f"claim takes an ID of its own, e.g. 'mine.{claim_id}'"
        )
    old = _REGISTRY.get(claim_id)
    if old is not None:
        raise ValueError(f"claim {claim_id!r} is already registered ({old.provenance})")


def add_user_claims(claims: Iterable[Claim]) -> None:
    """Register the claims of a user's code, described by a process that imported it.

    Parameters
    ----------
    claims : iterable of Claim
        The claims, each with its ``provenance`` and ``family`` (the user's code's).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        For an ID that is, or extends, a catalogued claim, or is registered already (or
        twice among ``claims``); nothing is registered then.

    Notes
    -----
    All or nothing: every ID is checked first (well formed, not a catalogued claim nor an
    extension of one, not already registered, not repeated among ``claims``), and only then
    are the claims registered, so a refused batch leaves the registry as it was.
    :func:`~moetheory.engine.usercode.load_user_checks` uses it to register, in this process,
    the claims a separate process reported on importing the user's code, without importing
    that code here.

    See Also
    --------
    user_code : the registration inside the importing process.
    moetheory.engine.usercode.load_user_checks : the caller.

    Examples
    --------
    >>> c = Claim("example.added", "s", ("f",), "S", "s", "exact",
    ...           lambda ctx: Outcome(Verdict.PROVED, "ok"), family="example",
    ...           provenance="module example")
    >>> add_user_claims([c])
    >>> get_claim("example.added").provenance
    'module example'
    >>> unregister("example.added")
    """
    claims = list(claims)
    seen: set[str] = set()
    for c in claims:
        _check_id(c.id)
        _refuse_user_id(c.id, catalogue_spec(c.id) is not None
                        or _parent_claim(c.id) is not None)
        if c.id in seen:
            raise ValueError(f"claim {c.id!r} is registered twice ({c.provenance})")
        seen.add(c.id)
    for c in claims:
        _REGISTRY[c.id] = c


@contextmanager
def user_code(provenance: str, family: str) -> Iterator[list[str]]:
    """Register the claims of a user's file or module imported meanwhile, as its own.

    Parameters
    ----------
    provenance : str
        What the claims' reports record as their origin: ``"file PATH"`` or
        ``"module NAME"``.
    family : str
        The family the claims share the family-wise error level in.

    Yields
    ------
    list of str
        The IDs the code registers, filled in as it registers them.

    Raises
    ------
    ValueError
        On leaving, if the code changed or removed a claim registered before (the registry
        is then put back as it was); at registration, for an ID that is, or extends, a
        catalogued claim or is registered already.

    See Also
    --------
    moetheory.engine.usercode.load_user_checks : imports a ``--checks`` file under it.

    Notes
    -----
    Whatever a claim's check says of itself (its ``__module__``, its ``__qualname__``),
    a claim registered meanwhile is the user's: its family and provenance are the ones
    given here, never the catalogue's. If the import raises, every claim it registered is
    removed.

    Examples
    --------
    >>> with user_code("module example", "example") as ids:
    ...     _ = claim("example.user", statement="1 = 1")(
    ...         lambda ctx: Outcome(Verdict.PROVED, "ok"))
    >>> ids, get_claim("example.user").provenance
    (['example.user'], 'module example')
    >>> unregister("example.user")
    """
    before = dict(_REGISTRY)
    loading = _UserCode(provenance, family, [])
    _LOADING.append(loading)
    try:
        yield loading.ids
        changed = [i for i, c in before.items() if _REGISTRY.get(i) is not c]
        foreign = sorted(set(_REGISTRY) - set(before) - set(loading.ids))
        if changed or foreign:
            raise ValueError(
                f"changes the registered claim {(changed or foreign)[0]!r} (a user's code "
                "may only register claims of its own with @claim)"
            )
    except BaseException:
        _REGISTRY.clear()
        _REGISTRY.update(before)
        raise
    finally:
        _LOADING.remove(loading)


def _user_defaults(
    claim_id: str, func: CheckFunction, family: str, reading: str | None,
    files: tuple[str, ...], section: str, statement: str | None,
) -> tuple[str, tuple[str, ...], str]:
    """``(reading, seed_files, section)`` of a claim: the package's own claims must give
    them (or inherit them from the catalogue); a user's claim defaults them to its
    statement, its check's file and its check's module."""
    if family == BUILTIN_FAMILY:
        if not reading:
            raise ValueError("reading must state the precise reading the check decides")
        if not files or not section:
            raise ValueError(f"claim {claim_id!r} needs seed_files=... and section=...")
        return reading, files, section
    module = getattr(func, "__module__", None) or "__main__"
    code = getattr(func, "__code__", None)
    where = (os.fsencode(Path(code.co_filename).name).decode("utf-8", "backslashreplace")
             if code is not None else module)
    return (reading or statement or claim_id, files or (where,), section or module)


def _check_id(claim_id: object) -> None:
    if not isinstance(claim_id, str) or not claim_id:
        raise ValueError(
            f"claim ID must be a non-empty string such as 'myplugin.lemma-2', got {claim_id!r}"
        )
    if not _ID_PATTERN.fullmatch(claim_id):
        fix = re.sub(r"[^A-Za-z0-9._+-]+", "-", claim_id).strip("-._+") or "myplugin.claim"
        raise ValueError(
            f"claim ID {claim_id!r} may contain only letters, digits and '.', '_', '-', '+' "
            f"(no spaces or shell-pattern characters * ? [ ], which --only could not "
            f"select); use e.g. {fix!r}"
        )


def _builtin_module(module: str) -> bool:
    if module in CHECK_MODULES or module.startswith(("moetheory.", "proofs_checks.")):
        return True
    if module == "__main__":
        # ``python proofs_checks/<paper>/<section>.py`` registers the module's claims as
        # __main__.
        main_file = getattr(sys.modules.get("__main__"), "__file__", None) or ""
        return "proofs_checks" in Path(main_file).parent.parts
    return False


def _family_of(func: CheckFunction) -> str:
    module = getattr(func, "__module__", None) or "__main__"
    if _builtin_module(module):
        return BUILTIN_FAMILY
    return module.split(".")[0]


def family_size(family: str, kind: str = "statistical") -> int:
    """How many registered claims of ``kind`` the ``family`` holds (at least 1).

    Parameters
    ----------
    family : str
        :data:`BUILTIN_FAMILY` or a plugin's top-level package.
    kind : {"exact", "statistical"}
        The kind counted.

    Returns
    -------
    int
        The count, at least 1.

    See Also
    --------
    moetheory.stats.claim_alpha : divides the family level by it.

    Notes
    -----
    The Bonferroni share of a statistical claim is the family level divided by this
    number; it depends on the installed catalogue (or the plugin's own claims) only, never
    on which claims a run selects.

    Examples
    --------
    >>> load_checks()
    >>> family_size(BUILTIN_FAMILY) >= 40, family_size("no-such-plugin")
    (True, 1)
    """
    return max(1, sum(c.family == family and c.kind == kind for c in _REGISTRY.values()))


def unregister(claim_id: str) -> None:
    """Remove a claim registered outside the catalogue (for tests and examples).

    Parameters
    ----------
    claim_id : str
        The claim; an unknown ID is ignored.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``claim_id`` is a catalogued claim.

    See Also
    --------
    claim : registers one.

    Notes
    -----
    Catalogued claims stay registered, so a report always shows the whole catalogue.

    Examples
    --------
    >>> unregister("example.never-registered")
    >>> unregister("cl.fig2")
    Traceback (most recent call last):
    ...
    ValueError: catalogued claim 'cl.fig2' cannot be unregistered
    """
    if catalogue_spec(claim_id) is not None:
        raise ValueError(f"catalogued claim {claim_id!r} cannot be unregistered")
    _REGISTRY.pop(claim_id, None)


def _same_check(a: CheckFunction, b: CheckFunction) -> bool:
    # A re-imported (reloaded) module registers the same function again; a module run as
    # a script registers under ``__main__`` and again under its own name.
    same_name = getattr(a, "__qualname__", None) == getattr(b, "__qualname__", None)
    modules = (getattr(a, "__module__", None), getattr(b, "__module__", None))
    return same_name and (modules[0] == modules[1] or "__main__" in modules)


def _parent_claim(claim_id: str) -> Claim | ClaimSpec | None:
    """The catalogued claim that ``claim_id`` extends (``<id>.corrected``, ``<id>.<step>``):
    its registration, or its catalogue entry while its check is not registered yet."""
    parts = claim_id.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:cut])
        spec = catalogue_spec(prefix)
        if spec is not None:
            registered_parent = _REGISTRY.get(prefix)
            return registered_parent if registered_parent is not None else spec
    return None


def _not_implemented(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.INCONCLUSIVE, "not implemented", {"reason": "not implemented"})


_loaded = False


def load_checks(modules: Iterable[str] = CHECK_MODULES) -> None:
    """Import the check modules and entry-point plugins, then fill in placeholders.

    Parameters
    ----------
    modules : iterable of str
        Module names to import (default :data:`CHECK_MODULES`); the plugins of the
        :data:`ENTRY_POINT_GROUP` entry points are imported too.

    Returns
    -------
    None

    Raises
    ------
    ImportError
        Naming every module that failed to import (the registry is then unchanged).

    See Also
    --------
    registered : the claims loaded.

    Notes
    -----
    Every catalogued claim without a check gets a placeholder that reports
    ``inconclusive`` ("not implemented"), so a report always shows the whole catalogue.

    Idempotent once it has succeeded. All or nothing: if any module fails to import,
    the registry is left as it was before the call, the modules this call imported are
    forgotten, and ``ImportError`` names every failure; the next call tries again (and
    raises again while the failure lasts).

    Examples
    --------
    >>> load_checks()
    >>> get_claim("cl.fig2").implemented
    True
    """
    global _loaded
    if _loaded:
        return
    from importlib.metadata import entry_points

    errors: list[str] = []
    names = list(modules) + [ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)]
    before = dict(_REGISTRY)
    imported_before = set(sys.modules)
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                errors.append(f"{name}: {exc}")
        except Exception as exc:
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
    if errors:
        _REGISTRY.clear()
        _REGISTRY.update(before)
        for name in names:
            if name not in imported_before:
                sys.modules.pop(name, None)
        raise ImportError("could not load check modules:\n" + "\n".join(errors))
    for spec in CATALOGUE:
        if spec.id not in _REGISTRY:
            _REGISTRY[spec.id] = Claim(
                id=spec.id,
                statement="(not implemented yet: no check registers this catalogued claim)",
                seed_files=spec.seed_files,
                section=spec.section,
                reading="not implemented yet",
                kind="exact",
                check=_not_implemented,
                implemented=False,
            )
    _loaded = True


def registered() -> list[Claim]:
    """All registered claims in report order.

    Returns
    -------
    list of Claim
        Catalogue order, each claim followed by the claims that extend it
        (``<id>.corrected`` ...), then claims from elsewhere sorted by ID.

    See Also
    --------
    select_claims : a subset by pattern.

    Notes
    -----
    Call :func:`load_checks` first; before it only the claims registered so far are listed.

    Examples
    --------
    >>> load_checks()
    >>> registered()[0].id
    'pcr.pde.cosine'
    """
    order: list[Claim] = []
    seen: set[str] = set()
    for spec in CATALOGUE:
        family = sorted(
            (c for c in _REGISTRY.values() if c.id.startswith(spec.id + ".") and c.id not in seen),
            key=lambda c: c.id,
        )
        for c in ([_REGISTRY[spec.id]] if spec.id in _REGISTRY else []) + family:
            if c.id not in seen:
                order.append(c)
                seen.add(c.id)
    order.extend(sorted((c for c in _REGISTRY.values() if c.id not in seen), key=lambda c: c.id))
    return order


def get_claim(claim_id: str) -> Claim:
    """The registered claim with this ID.

    Parameters
    ----------
    claim_id : str
        The exact ID.

    Returns
    -------
    Claim
        Its registration.

    Raises
    ------
    KeyError
        If no claim has this ID (the message names close matches).

    See Also
    --------
    select_claims : by shell-style pattern.

    Notes
    -----
    IDs are exact and case-sensitive.

    Examples
    --------
    >>> load_checks()
    >>> get_claim("cl.fig2").seed_file
    '003_3078ccb5100b14b7.txt'
    """
    try:
        return _REGISTRY[claim_id]
    except KeyError:
        close = [c for c in _REGISTRY if claim_id.split(".")[0] in c][:5]
        hint = f"; did you mean one of {close}?" if close else ""
        raise KeyError(f"no claim with ID {claim_id!r}{hint}") from None


def select_claims(patterns: Iterable[str] | None = None) -> list[Claim]:
    """The registered claims matching any of the shell-style ``patterns`` (all if none).

    Parameters
    ----------
    patterns : iterable of str, optional
        Shell-style patterns (:mod:`fnmatch`, case-sensitive) of claim IDs.

    Returns
    -------
    list of Claim
        In report order (:func:`registered`).

    Raises
    ------
    ValueError
        If a pattern matches no claim, so a typo never silently checks nothing.

    See Also
    --------
    get_claim : one claim by its exact ID.

    Notes
    -----
    Patterns are matched against whole IDs, case-sensitively.

    Examples
    --------
    >>> load_checks()
    >>> [c.id for c in select_claims(["cl.fig2", "cl.fig4-5"])]
    ['cl.fig2', 'cl.fig4-5']
    """
    claims = registered()
    pats = list(patterns or [])
    if not pats:
        return claims
    unmatched = [p for p in pats if not any(fnmatch.fnmatchcase(c.id, p) for c in claims)]
    if unmatched:
        raise ValueError(
            f"--only pattern(s) {unmatched} match no claim; `moetheory list` shows the IDs"
        )
    return [c for c in claims if any(fnmatch.fnmatchcase(c.id, p) for p in pats)]
