"""Roll-ups, specific agreement and the expected confusion matrix."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.granularity import (
    expected_confusion,
    rollup,
    rollup_confusion,
    specific_agreement,
    specific_agreement_multi,
)
from tests.core.test_agreement_worked_example import figure1

TOL = 1e-12


def test_rollup_to_top_senses_on_figure1() -> None:
    inst, rater, P, lexelt, _ = figure1()
    leaf_group = np.array([[0, 0, 0, 1, 1, 1]])
    Q = rollup(P, lexelt[inst], leaf_group, np.array([2]))
    assert Q.shape == (18, 2) and np.allclose(Q.sum(1), 1.0)
    assert Q[rater == 0][4].tolist() == [0.5, 0.5]  # A.1a and B.2
    # depth 1: observed = 5/6 (only i4 r2 and i5 r1 disagree in part); Fleiss kappa defined
    res = multi_rater_agreement(inst, rater, Q, lexelt)
    assert res.fleiss.observed == pytest.approx((1 + 1 + 1 + 1 / 3 + 2 / 3 + 1) / 6, abs=TOL)


def test_rollup_ignores_padding_and_handles_lexelts() -> None:
    P = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    leaf_group = np.array([[0, 0, -1], [1, 0, 0]])
    Q = rollup(P, np.array([0, 1]), leaf_group, np.array([1, 2]))
    assert Q.tolist() == [[1.0, 0.0], [0.8, 0.2]]


def test_specific_agreement_pair_equals_multi_and_formula() -> None:
    inst, rater, P, lexelt, _ = figure1()
    pa, pb = P[rater == 0], P[rater == 1]
    psa = specific_agreement(pa, pb)
    num = 2 * (pa * pb).sum(0)
    den = (pa + pb).sum(0)
    assert np.allclose(psa.filled(-1)[0], np.where(den > 0, num / den, -1))
    keep = rater < 2
    multi = specific_agreement_multi(inst[keep], rater[keep], P[keep], lexelt)
    assert np.allclose(multi.filled(-1), psa.filled(-1), atol=TOL)
    unused = specific_agreement(np.eye(3)[[0, 0]], np.eye(3)[[0, 1]])
    assert unused.mask[0, 2] and unused[0, 0] == pytest.approx(2 / 3)


def test_expected_confusion_and_rollup() -> None:
    inst, rater, P, lexelt, _ = figure1()
    C = expected_confusion(P[rater == 0], P[rater == 1])
    assert C.shape == (1, 6, 6) and C.sum() == pytest.approx(6.0)
    assert np.trace(C[0]) == pytest.approx(6 * 5 / 9, abs=TOL)  # trace = sum of Pr_i(A)
    G = rollup_confusion(C, np.array([[0, 0, 0, 1, 1, 1]]), 2)
    Qa = rollup(P[rater == 0], np.zeros(6, int), np.array([[0, 0, 0, 1, 1, 1]]), 2)
    Qb = rollup(P[rater == 1], np.zeros(6, int), np.array([[0, 0, 0, 1, 1, 1]]), 2)
    assert np.allclose(G[0], Qa.T @ Qb, atol=TOL)
