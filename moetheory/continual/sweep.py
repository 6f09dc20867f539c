"""Run many simulator configurations on any ``concurrent.futures.Executor``.

Local processes by default; a ``dask.distributed`` cluster when a scheduler address is given
(optional extra ``moetheory[dask]``); or any executor the caller passes. Every configuration
gets the same seed by default, so configurations differing only in ``M`` or ``Γ`` see the same
ground truths and tasks (paired comparisons).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from moetheory.continual.config import CLConfig
from moetheory.continual.simulator import CLResult, simulate

__all__ = ["run_sweep"]


def _one(cfg: CLConfig, replicates: int, seed: int | None, options: dict[str, Any]) -> CLResult:
    return simulate(cfg, replicates, seed, **options)


def run_sweep(
    configs: Sequence[CLConfig],
    *,
    replicates: int = 1,
    seed: int | Sequence[int | None] | None = 0,
    executor: Executor | None = None,
    scheduler: str | None = None,
    max_workers: int | None = None,
    progress: bool = False,
    **options: Any,
) -> list[CLResult]:
    """Simulate every configuration; results in the order of ``configs``.

    Parameters
    ----------
    configs : sequence of CLConfig
        The configurations.
    replicates : int
        Replicates per configuration.
    seed : int, None or sequence
        One seed for all configurations (paired), or one per configuration.
    executor : concurrent.futures.Executor, optional
        Where to run; takes precedence over ``scheduler``.
    scheduler : str, optional
        Address of a ``dask.distributed`` scheduler (``"tcp://host:8786"``).
    max_workers : int, optional
        Local processes; ``1`` runs in this process without an executor.
    progress : bool
        Progress bar over configurations.
    **options
        Passed to :func:`~moetheory.continual.simulate` (``record_gates=True`` ...).

    Returns
    -------
    list of CLResult
        One result per configuration, in the order of ``configs``.

    Raises
    ------
    ValueError
        If ``configs`` is empty or holds something other than :class:`CLConfig`, if
        ``max_workers`` is not a positive integer, if a sequence of seeds does not have one seed
        per configuration, or if ``scheduler`` is given without ``dask.distributed``.

    See Also
    --------
    moetheory.continual.simulate : one configuration in this process.
    moetheory.continual.simulator.simulate_many : configurations sharing their data, stacked in
        one vectorised loop (faster than a sweep when they fit in memory).

    Notes
    -----
    Every run is :func:`~moetheory.continual.simulate` with its own seed, so a configuration
    gives the same bits wherever it runs (the simulator uses only BLAS-free kernels, see
    :mod:`moetheory.continual.portable`).

    Examples
    --------
    >>> res = run_sweep([CLConfig(M=1, T=10), CLConfig(M=2, T=10)], max_workers=1)
    >>> [r.config.M for r in res]
    [1, 2]
    """
    configs = list(configs)
    if not configs or not all(isinstance(c, CLConfig) for c in configs):
        raise ValueError("configs must be a non-empty sequence of CLConfig")
    if max_workers is not None and (not isinstance(max_workers, int) or max_workers < 1):
        raise ValueError(f"max_workers must be an integer >= 1 or None, got {max_workers!r}")
    if isinstance(seed, Sequence) and not isinstance(seed, str):
        seeds = list(seed)
        if len(seeds) != len(configs):
            raise ValueError(
                f"seed must be one seed or one per configuration ({len(configs)}), "
                f"got {len(seeds)}"
            )
    else:
        seeds = [seed] * len(configs)
    from tqdm import tqdm

    bar = tqdm(total=len(configs), disable=not progress, unit="config")
    try:
        if executor is None and scheduler is None and max_workers == 1:
            results = []
            for cfg, s in zip(configs, seeds, strict=True):
                results.append(_one(cfg, replicates, s, options))
                bar.update(1)
            return results
        if executor is not None:
            return _submit_all(executor, configs, replicates, seeds, options, bar)
        if scheduler is not None:
            try:
                from distributed import Client
            except ImportError as exc:
                raise ValueError(
                    "scheduler needs dask.distributed: pip install 'moetheory[dask]'"
                ) from exc
            with Client(scheduler) as client:
                return _submit_all(client.get_executor(), configs, replicates, seeds, options, bar)
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=max_workers) as pool:
            return _submit_all(pool, configs, replicates, seeds, options, bar)
    finally:
        bar.close()


def _submit_all(
    executor: Executor,
    configs: list[CLConfig],
    replicates: int,
    seeds: list[int | None],
    options: dict[str, Any],
    bar: Any,
) -> list[CLResult]:
    futures = [
        executor.submit(_one, cfg, replicates, s, options)
        for cfg, s in zip(configs, seeds, strict=True)
    ]
    results = []
    for fut in futures:
        results.append(fut.result())
        bar.update(1)
    return results
