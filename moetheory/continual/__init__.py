"""Continual learning with Mixture-of-Experts (seed 003): simulator, data models, sweeps.

Examples
--------
>>> from moetheory.continual import CLConfig, simulate
>>> res = simulate(CLConfig(M=2, T=20), replicates=2, seed=1)
>>> res.expert.shape
(2, 20)
"""

from moetheory.continual.config import READINGS, CLConfig
from moetheory.continual.data import (
    TaskBatch,
    cluster_of,
    ground_truth_unit,
    ground_truths,
    task_batch,
)
from moetheory.continual.simulator import (
    CLResult,
    gate_gradient,
    simulate,
    simulate_many,
    softmax,
)
from moetheory.continual.sweep import run_sweep

__all__ = [
    "READINGS",
    "CLConfig",
    "CLResult",
    "TaskBatch",
    "cluster_of",
    "gate_gradient",
    "ground_truth_unit",
    "ground_truths",
    "run_sweep",
    "simulate",
    "simulate_many",
    "softmax",
    "task_batch",
]
