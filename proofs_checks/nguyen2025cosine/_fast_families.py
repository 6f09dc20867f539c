"""The expert families of ``pcr.rates.perturbed-fast`` (:mod:`.rates`): which the seeds name,
what their fits cost, which each profile fits, and the readings and the "to decide" text on the
families a profile does not fit.
"""

from __future__ import annotations

from moetheory import Reading, Verdict
from proofs_checks.nguyen2025cosine._dense_rates import PERTURBED_FAST_BUDGET, _to_decide

__all__: list[str] = []

#: Theorem 4 band (log n / n)^{1/2}..(log n / n)^{1/4}, with the log corrections at n >= 50.
BAND = (-0.55, -0.18)

#: Expert families the seeds name for the perturbed router's fast rates: ReLU and GeLU FFNs
#: (002 L58), ReLU, tanh and z^p (002 L116), GELU (000 L165).
FAST_EXPERTS: tuple[str, ...] = ("tanh", "relu", "gelu", "poly2")

#: CPU seconds per replicate of pcr.rates.perturbed-fast's fits of each family at the full
#: design (perturbed router, k = 3, six sizes up to n = 10000, fitted to the LM and BFGS
#: stopping rules), measured on the reference machine (2-core x86-64, one core, loaded):
#: the non-smooth ReLU and the sign-symmetric z^2 fits run long in BFGS.
FAST_EXPERT_SECONDS: dict[str, float] = {"tanh": 5.7, "relu": 48.8, "gelu": 21.6,
                                         "poly2": 134.6}

#: The expert families pcr.rates.perturbed-fast fits, per profile. Rule fixed by CPU cost
#: before any verdict (issue 32): the quick profile fits only the family whose cells the
#: other dense rates claims already fit (tanh: pcr.rates.regression's and
#: pcr.rates.comparison's perturbed k = 3 cells, shared within a run), since each further
#: family costs about 9 s of CPU there (13 replicates at 5 sizes, most fits running into
#: BFGS), three of them 26 s against the dense claims' share of about 15 s of the quick
#: catalogue. The full profile fits the families whose replicates fit in a check's CPU limit
#: (:data:`moetheory.engine.runner.DEFAULT_TIMEOUT`, 900 s) at its budget
#: (:data:`._dense_rates.PERTURBED_FAST_BUDGET`, 17 replicates): tanh and GELU, about 27 s a
#: replicate (:data:`FAST_EXPERT_SECONDS`). ReLU and z^2 cost about 49 and 135 s a replicate:
#: 17 of them alone take 3,100 s, so no profile fits them and the claim's reading at the
#: experiment's G*, which needs every family, cannot be supported here (it can be unsupported
#: by a fitted family); the evidence says so (``to_decide``). Before this rule the full
#: profile fitted all four in looks of 33 and exceeded the limit in its first look, leaving
#: no evidence at all.
FITTED_FAST_EXPERTS: dict[str, tuple[str, ...]] = {"quick": ("tanh",), "full": ("tanh", "gelu")}

#: The expert families of :data:`FAST_EXPERTS` as the summary names them.
_FAMILY_TEXT: dict[str, str] = {"tanh": "tanh", "relu": "ReLU", "gelu": "GELU", "poly2": "z^2"}


def _not_fitted_reading(name: str, expert: str, profile: str) -> Reading:
    """The reading ``name`` on ``expert``'s family in a profile that does not fit it
    (:data:`FITTED_FAST_EXPERTS`): inconclusive, and which profile fits it, if any."""
    fits_it = [p for p, fam in FITTED_FAST_EXPERTS.items() if expert in fam]
    where = (f"the {' and '.join(fits_it)} profile fits it" if fits_it else
             f"no profile fits it: about {FAST_EXPERT_SECONDS[expert]:.0f} CPU s per replicate "
             "at the full design, beyond a check's CPU limit (900 s) at the replicates a slope "
             "interval needs")
    return Reading(
        name, f"slope CI inside the band {BAND}", Verdict.INCONCLUSIVE,
        f"not fitted in the {profile} profile (CPU budget); {where}",
        {"fit": None, "comparison": None, "fitted_in": fits_it,
         "cpu_seconds_per_replicate": FAST_EXPERT_SECONDS[expert]})


def _fast_to_decide(profile: str, seq, not_fitted: list[str], capped: bool) -> str:
    """What would decide pcr.rates.perturbed-fast's open reading at the experiment's G*: the
    full profile for the families it fits (:func:`._dense_rates._to_decide`), and fits of the
    families no profile fits, with their CPU cost (:data:`FAST_EXPERT_SECONDS`)."""
    full = FITTED_FAST_EXPERTS["full"]
    in_full = [e for e in not_fitted if e in full]
    nowhere = [e for e in not_fitted if e not in full]
    text = _to_decide(profile, PERTURBED_FAST_BUDGET, seq, in_full, capped)
    if nowhere:
        batch, looks = PERTURBED_FAST_BUDGET["full"]
        cost = sum(FAST_EXPERT_SECONDS[e] for e in nowhere) * (1 + batch * looks)
        text += (f"; and fits of the {', '.join(nowhere)} experts, which no profile runs: "
                 + ", ".join(f"{e} about {FAST_EXPERT_SECONDS[e]:.0f}" for e in nowhere)
                 + f" CPU s per replicate at the full design ({cost:,.0f} s for the full "
                 f"profile's {1 + batch * looks} replicates, beyond a check's CPU limit of 900 s)")
    return text
