"""The context a check runs in: its seed, profile and statistical budget.

A check is a pure function of its :class:`CheckContext`: the same context gives the same
outcome on every run. The context's seed is derived from the run's master seed and the
claim's ID (:func:`claim_seed`), so selecting other claims with ``--only`` never changes a
claim's verdict.

Examples
--------
>>> ctx = CheckContext("pcr.pde.cosine", seed=claim_seed(0, "pcr.pde.cosine"))
>>> ctx.profile, ctx.full
('quick', False)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["PROFILES", "CheckContext", "claim_seed"]

PROFILES: tuple[str, ...] = ("quick", "full")

#: How :meth:`CheckContext.map` runs batches on a cluster: set by the engine to
#: :func:`moetheory.engine.runner.map_on_cluster` (supervised, under the check's limits) when
#: it loads (``import moetheory`` loads it); until then the batches run in this process.
cluster_map: Callable[[str, Callable[[Any], Any], list[Any]], list[Any]] | None = None


def claim_seed(master_seed: int, claim_id: str) -> int:
    """Derive a check's seed from the master seed and the claim ID (SHA-256, 63 bits).

    Parameters
    ----------
    master_seed : int
        The run's seed (``--seed``), a non-negative Python or NumPy integer (not a bool).
    claim_id : str
        The claim's ID.

    Returns
    -------
    int
        A seed in :math:`[0, 2^{63})`.

    Raises
    ------
    ValueError
        If ``master_seed`` is not a non-negative integer.

    Notes
    -----
    The seed is the first 8 bytes of :math:`\\mathrm{SHA256}(\\text{"seed:id"})`, shifted
    right by one bit: independent of the platform, of the Python hash seed and of which other
    claims run.

    See Also
    --------
    CheckContext.rng : the generators a check draws from.

    Examples
    --------
    >>> claim_seed(0, "cl.fig2") == claim_seed(0, "cl.fig2")
    True
    >>> claim_seed(0, "cl.fig2") != claim_seed(1, "cl.fig2")
    True
    """
    import numpy as np

    if (
        isinstance(master_seed, bool)
        or not isinstance(master_seed, int | np.integer)
        or master_seed < 0
    ):
        raise ValueError(f"seed must be a non-negative integer, got {master_seed!r}")
    digest = hashlib.sha256(f"{int(master_seed)}:{claim_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class CheckContext:
    """Everything a check may depend on besides its code.

    Parameters
    ----------
    claim_id : str
        The claim being checked.
    seed : int
        The check's own seed (see :func:`claim_seed`).
    profile : {"quick", "full"}
        Budget: ``quick`` for tests and CI, ``full`` for the paper-scale run.
    alpha : float
        Family-wise error level allotted to this claim (Bonferroni share of the run's
        family level over all statistical claims). Checks split it further over their own
        comparisons.
    scheduler : str, optional
        Address of the Dask scheduler the run uses, if any; :meth:`map` sends replicate
        batches there.
    master_seed : int, optional
        The run's master seed (``--seed``), from which :meth:`shared_seed` derives the seeds
        of simulations that several checks share. ``None`` for a context built by hand: the
        shared seeds then derive from ``seed``.

    Raises
    ------
    ValueError
        For an unknown profile or ``alpha`` outside (0, 1).

    See Also
    --------
    claim_seed : the check's seed from the master seed and the claim ID.
    moetheory.engine.runner.claim_context : builds the context of a run.

    Notes
    -----
    A check draws its random numbers only from :meth:`rng` and :meth:`shared_seed`, so the
    same master seed gives the same result whatever the order or parallelism of the run, and
    another master seed gives other data to every statistical check.

    Examples
    --------
    >>> ctx = CheckContext("cl.fig2", seed=7, profile="quick", alpha=0.001)
    >>> float(ctx.rng().random()) == float(ctx.rng().random())
    True
    >>> ctx.map(abs, [-1, 2, -3])
    [1, 2, 3]
    """

    claim_id: str
    seed: int
    profile: str = "quick"
    alpha: float = 0.001
    scheduler: str | None = None
    master_seed: int | None = None

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise ValueError(f"profile must be one of {PROFILES}, got {self.profile!r}")
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must lie in (0, 1), got {self.alpha!r}")

    def rng(self, stream: int = 0) -> np.random.Generator:
        """A fresh generator for this claim; ``stream`` separates independent uses.

        Parameters
        ----------
        stream : int
            Index of an independent stream (e.g. 0 for the data, 1 for a bootstrap).

        Returns
        -------
        numpy.random.Generator
            ``numpy.random.default_rng([seed, stream])``: the same numbers on every call.

        Examples
        --------
        >>> ctx = CheckContext("x", 7)
        >>> bool(ctx.rng(1).random() == ctx.rng(1).random())
        True
        """
        import numpy as np

        return np.random.default_rng([self.seed, stream])

    def shared_seed(self, key: str) -> int:
        """The seed of a simulation that several checks of one run share (cached once).

        Parameters
        ----------
        key : str
            Names the shared simulation (e.g. the module that owns it).

        Returns
        -------
        int
            :func:`claim_seed` of the master seed and ``"shared:" + key``: the same for every
            check of a run, different under another master seed. Without a master seed
            (a context built by hand) it derives from this check's own ``seed``.

        Examples
        --------
        >>> a = CheckContext("x", 7, master_seed=0).shared_seed("sims")
        >>> a == CheckContext("y", 9, master_seed=0).shared_seed("sims")
        True
        >>> a != CheckContext("x", 7, master_seed=1).shared_seed("sims")
        True
        """
        base = self.seed if self.master_seed is None else self.master_seed
        return claim_seed(base, "shared:" + key)

    def map(self, func: Callable[[T], R], items: Iterable[T]) -> list[R]:
        """``[func(x) for x in items]``, on the run's Dask cluster or its idle local cores.

        Parameters
        ----------
        func : callable
            Applied to each item; must be picklable to run on a cluster.
        items : iterable
            Independent work items (e.g. replicate batches with their seeds).

        Returns
        -------
        list
            ``func(x)`` for each item, in the order of ``items``.

        Notes
        -----
        Use it for independent replicate batches: each batch must derive its randomness
        from its item (e.g. a seed from :meth:`rng`), never from shared state, so the
        result is the same locally and on a cluster. The results keep the order of
        ``items``. On a cluster each batch runs on a worker in a supervised process under
        the check's limits, and their CPU time counts against the check's time limit as it
        does locally (:func:`moetheory.engine.runner.map_on_cluster`); they are killed when
        the check ends. The check's own process waits for them, so the cluster needs more
        than one worker thread. In a local run, the workers that have no claim left to start
        compute batches beside the check's process
        (:func:`moetheory.engine._pool.lent_map`: helper processes under the check's limits,
        never more processes computing than ``--jobs``); the result is the same list.

        Examples
        --------
        >>> CheckContext("x", 0).map(lambda k: k * k, range(4))
        [0, 1, 4, 9]
        """
        batch = list(items)
        if self.scheduler is None or len(batch) <= 1 or cluster_map is None:
            from moetheory.engine._pool import lent_map

            return lent_map(func, batch)
        return cluster_map(self.scheduler, func, batch)

    @property
    def full(self) -> bool:
        """True under the ``full`` profile."""
        return self.profile == "full"
