"""Fleiss' kappa with missing ratings: the project's form and Gwet's generalisation (irrCAC).

With instances rated by different numbers of annotators, "Fleiss' kappa" has two forms that
agree when every instance has as many annotations and differ otherwise (irrCAC's five-observer
example: 0.4643 and 0.458).  Both share ``Pr(A)``; they differ in the marginal behind ``Pr(E)``.
:func:`~hieradjudicate.core.agreement.multirater.multi_rater_agreement` gives both (``fleiss``,
``fleiss_gwet``), and every output names which is which with the rules below.
"""

from __future__ import annotations

from typing import Any

import numpy as np

FLEISS_MISSING_RULE = (
    "Fleiss (1971) kappa, soft labels; with missing ratings Pr(A) = mean P_i over instances with >= 2 "
    "annotations and Pr(E) from the mean of all their annotations (each annotation weighs the same; "
    "single-rated instances left out): not Gwet's generalisation (irrCAC), which can differ"
)
GWET_FLEISS_RULE = (
    "Fleiss kappa in Gwet's generalisation for missing ratings (Gwet 2014, irrCAC fleiss.kappa.raw): "
    "Pr(A) as Fleiss; Pr(E) = sum_l pi_l^2 with pi = the mean over every annotated instance of the "
    "lexelt (single-rated included) of its share of annotations per leaf (each instance weighs the same)"
)


def gwet_fleiss_chance(full: Any) -> np.ndarray:
    """Per-lexelt ``Pr_x(E)`` of Fleiss' kappa in Gwet's generalisation (:data:`GWET_FLEISS_RULE`).

    ``pi_x = mean_i s_i / m_i`` over every instance of ``x`` with at least one
    annotation (``full``: an agreement ``Layout`` before ``pairable()``), and
    ``Pr_x(E) = |pi_x|^2``; equal to Fleiss' when every instance has the same
    number of annotations.  0 for a lexelt without instances.
    """
    X = full.n_lexelts
    if full.R == 0:
        return np.zeros(X)
    share = full.seg_sum / full.seg_m.astype(np.float64)[:, None]
    pi = full.lexelt_sums(share) / np.maximum(np.diff(full.lex_segs), 1).astype(np.float64)[:, None]
    return np.einsum("xk,xk->x", pi, pi)
