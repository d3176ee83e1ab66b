"""The worked example of metrics.md section 3 (Figure 1 inventory, three annotators), exactly."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement, pairwise_matrix
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.agreement.granularity import (
    COMPATIBLE,
    DISJOINT,
    IDENTICAL,
    OVERLAPPING,
    instance_disagreement,
)

LEAVES = ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3"]
_D: dict[str, list[F]] = {
    "A": [F(1, 4), F(1, 4), F(1, 2), F(0), F(0), F(0)],
    "A.1": [F(1, 2), F(1, 2), F(0), F(0), F(0), F(0)],
    "B": [F(0), F(0), F(0), F(1, 3), F(1, 3), F(1, 3)],
}
_D.update({leaf: [F(int(j == i)) for j in range(6)] for i, leaf in enumerate(LEAVES)})

TABLE = [
    (["A.1a"], ["A.1a"], ["A.1"]),
    (["A"], ["A.2"], ["A.2"]),
    (["B.2"], ["B"], ["B.2", "B.3"]),
    (["B.1"], ["A.1b"], ["B.1"]),
    (["A.1a", "B.2"], ["A.1a"], ["A.1a"]),
    (["B.3"], ["B.3"], ["B"]),
]


def leaf_vector(tags: list[str]) -> list[F]:
    """Uniform mixture of the tags' leaf distributions (metrics.md section 1)."""
    return [sum((_D[t][k] for t in tags), F(0)) / len(tags) for k in range(6)]


def figure1() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[list[F]]]:
    """Long-form arrays of the worked example: inst, rater, P (float), inst_lexelt, exact P."""
    inst, rater, exact = [], [], []
    for i, row in enumerate(TABLE):
        for r, tags in enumerate(row):
            inst.append(i)
            rater.append(r)
            exact.append(leaf_vector(tags))
    P = np.array([[float(v) for v in p] for p in exact])
    return np.array(inst), np.array(rater), P, np.zeros(len(TABLE), np.int64), exact


PAIRS = {
    (0, 1): (F(5, 9), F(683, 3456), F(1237, 2773), F(77, 432), F(163, 355)),
    (0, 2): (F(5, 9), F(221, 1152), F(419, 931), F(5, 27), F(5, 11)),
    (1, 2): (F(19, 36), F(41, 216), F(73, 175), F(19, 108), F(38, 89)),
}
TOL = 1e-12


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_pairwise_table(pair: tuple[int, int]) -> None:
    inst, rater, P, _, _ = figure1()
    a, b = pair
    res = pairwise_agreement(P[rater == a], P[rater == b])
    pr_a, pe_s, k_s, pe_c, k_c = PAIRS[pair]
    assert res.n == 6
    assert res.scott.observed == pytest.approx(float(pr_a), abs=TOL)
    assert res.cohen.observed == pytest.approx(float(pr_a), abs=TOL)
    assert res.scott.expected == pytest.approx(float(pe_s), abs=TOL)
    assert res.scott.kappa.value == pytest.approx(float(k_s), abs=TOL)
    assert res.cohen.expected == pytest.approx(float(pe_c), abs=TOL)
    assert res.cohen.kappa.value == pytest.approx(float(k_c), abs=TOL)
    # one lexelt: the per-lexelt figure and the macro mean are the corpus figure
    assert res.lexelt_cohen[0].kappa.value == pytest.approx(float(k_c), abs=TOL)
    assert res.macro_scott.value == pytest.approx(float(k_s), abs=TOL)


def test_pairwise_matrix_matches_table() -> None:
    inst, rater, P, lexelt, _ = figure1()
    M = pairwise_matrix(inst, rater, P, lexelt, per_lexelt=True)
    for (a, b), (pr_a, pe_s, k_s, pe_c, k_c) in PAIRS.items():
        for u, v in ((a, b), (b, a)):
            assert M.n[u, v] == 6
            assert M.observed[u, v] == pytest.approx(float(pr_a), abs=TOL)
            assert M.expected_scott[u, v] == pytest.approx(float(pe_s), abs=TOL)
            assert M.expected_cohen[u, v] == pytest.approx(float(pe_c), abs=TOL)
            assert M.kappa_scott[u, v] == pytest.approx(float(k_s), abs=TOL)
            assert M.kappa_cohen[u, v] == pytest.approx(float(k_c), abs=TOL)
            assert M.macro_cohen[u, v] == pytest.approx(float(k_c), abs=TOL)
        assert M.pair(a, b).cohen.kappa.value == pytest.approx(float(k_c), abs=TOL)
    assert M.kappa_cohen.mask.diagonal().all()
    mean = (F(163, 355) + F(5, 11) + F(38, 89)) / 3
    assert M.mean_kappa("cohen").value == pytest.approx(float(mean), abs=TOL)


def test_fleiss_soft() -> None:
    inst, rater, P, lexelt, _ = figure1()
    res = multi_rater_agreement(inst, rater, P, lexelt)
    assert res.fleiss.observed == pytest.approx(59 / 108, abs=TOL)
    assert res.fleiss.expected == pytest.approx(163 / 864, abs=TOL)
    assert res.fleiss.kappa.value == pytest.approx(309 / 701, abs=TOL)


def test_conger_against_exact_fractions() -> None:
    """Davies & Fleiss: Pr(E) = mean over ordered pairs of distinct raters of P_r . P_r'."""
    inst, rater, P, lexelt, exact = figure1()
    marg = [[sum((exact[j][k] for j in range(len(exact)) if rater[j] == r), F(0)) / 6 for k in range(6)]
            for r in range(3)]
    pe = sum((sum((marg[r][k] * marg[s][k] for k in range(6)), F(0)) for r in range(3) for s in range(3) if r != s),
             F(0)) / 6
    kappa = (F(59, 108) - pe) / (1 - pe)
    res = multi_rater_agreement(inst, rater, P, lexelt)
    assert res.conger.observed == pytest.approx(59 / 108, abs=TOL)
    assert res.conger.expected == pytest.approx(float(pe), abs=TOL)
    assert res.conger.kappa.value == pytest.approx(float(kappa), abs=TOL)


def test_alpha_soft_nominal() -> None:
    inst, rater, P, lexelt, _ = figure1()
    res = krippendorff_alpha(inst, rater, P, lexelt)
    assert res.alpha.value == pytest.approx(2977 / 6309, abs=TOL)
    assert res.n_pairable == pytest.approx(18.0, abs=TOL)
    assert res.coincidence.sum() == pytest.approx(18.0, abs=TOL)
    assert np.allclose(res.coincidence[0], res.coincidence[0].T, atol=TOL)
    assert res.lexelt_alpha[0].value == pytest.approx(2977 / 6309, abs=TOL)


def test_two_annotators_writing_A_agree_three_eighths() -> None:
    a = np.array([[float(v) for v in leaf_vector(["A"])]])
    agree, cat = instance_disagreement(a, a, np.array([True]))
    assert agree[0] == pytest.approx(3 / 8, abs=TOL)
    assert float(sum(x * x for x in leaf_vector(["A"]))) == pytest.approx(3 / 8, abs=TOL)
    assert cat[0] == IDENTICAL
    res = pairwise_agreement(a, a)
    assert res.scott.observed == pytest.approx(3 / 8, abs=TOL)


def test_instance_categories_on_figure1() -> None:
    inst, rater, P, _, _ = figure1()
    pa, pb = P[rater == 0], P[rater == 2]
    same = np.array([a == b for a, b in zip((r[0] for r in TABLE), (r[2] for r in TABLE))])
    agree, cat = instance_disagreement(pa, pb, same)
    # i1 A.1a vs A.1: compatible; i2 A vs A.2: compatible; i3 B.2 vs {B.2,B.3}: compatible;
    # i4 B.1 vs B.1: identical; i5 {A.1a,B.2} vs A.1a: compatible; i6 B.3 vs B: compatible
    assert cat.tolist() == [COMPATIBLE, COMPATIBLE, COMPATIBLE, IDENTICAL, COMPATIBLE, COMPATIBLE]
    assert agree.tolist() == pytest.approx([1 / 2, 1 / 2, 1 / 2, 1.0, 1 / 2, 1 / 3], abs=TOL)
    p12 = P[rater == 1]
    _, cat01 = instance_disagreement(P[rater == 0], p12, np.zeros(6, bool))
    assert cat01[3] == DISJOINT  # B.1 vs A.1b
    ov = np.array([[0.5, 0.5, 0, 0, 0, 0]])
    ov2 = np.array([[0, 0.5, 0.5, 0, 0, 0]])
    assert instance_disagreement(ov, ov2, np.array([False]))[1][0] == OVERLAPPING
