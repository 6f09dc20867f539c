"""Estimation in the (perturbed) cosine-router MoE of seed 002.

* :mod:`~moetheory.estimation.models` -- regression functions :math:`f_G` (eq. 2), :math:`g_G`
  (eq. 8), linear router, Top-K sparse versions;
* :mod:`~moetheory.estimation.voronoi` -- Voronoi cells (5) and Voronoi losses;
* :mod:`~moetheory.estimation.fitting` -- least-squares estimator (3) with analytic gradients;
* :mod:`~moetheory.estimation.experiment` -- the estimation-rate experiment;
* :mod:`~moetheory.estimation.slopes` -- log-log slopes of median losses and their intervals.

Examples
--------
>>> from moetheory.estimation import MixingMeasure, Router, regression_function
>>> import numpy as np
>>> G = MixingMeasure([0.0], [[1.0, 0.0]], [[0.0, 0.0, 2.0]])
>>> regression_function(G, np.ones((1, 2)), Router("cosine"), "linear").tolist()
[2.0]
"""

from moetheory.estimation.fitting import FitResult, fit_least_squares, least_squares_objective
from moetheory.estimation.models import (
    EXPERTS,
    ROUTERS,
    MixingMeasure,
    Router,
    gate_probabilities,
    regression_function,
    router_scores,
)
from moetheory.estimation.voronoi import (
    canonical_form,
    voronoi_cells,
    voronoi_loss,
    voronoi_loss_2,
)

__all__ = [
    "EXPERTS",
    "ROUTERS",
    "FitResult",
    "MixingMeasure",
    "Router",
    "canonical_form",
    "fit_least_squares",
    "gate_probabilities",
    "least_squares_objective",
    "regression_function",
    "router_scores",
    "voronoi_cells",
    "voronoi_loss",
    "voronoi_loss_2",
]
