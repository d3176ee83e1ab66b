"""Flat data (one leaf per annotation): kappa figures equal the established implementations.

Oracles: scikit-learn ``cohen_kappa_score``, statsmodels ``fleiss_kappa``,
NLTK ``AnnotationTask`` (``pi``, ``kappa``, ``multi_kappa``).  Degenerate
data (a single category) makes the oracles return nan or raise; our
functions must then say "undefined" with a reason.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from nltk.metrics.agreement import AnnotationTask
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa

from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement, pairwise_matrix
from hieradjudicate.core.stats.undefined import Estimate

TOL = 1e-9


@st.composite
def labels(draw: st.DrawFn, min_raters: int = 2, max_raters: int = 5) -> np.ndarray:
    """A complete (raters x items) matrix of category codes."""
    m = draw(st.integers(min_raters, max_raters))
    n = draw(st.integers(2, 25))
    q = draw(st.integers(1, 5))
    flat = draw(st.lists(st.integers(0, q - 1), min_size=m * n, max_size=m * n))
    return np.array(flat).reshape(m, n)


def long_form(L: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    m, n = L.shape
    rater, inst = np.nonzero(np.ones_like(L, dtype=bool))
    P = np.eye(int(L.max()) + 1)[L[rater, inst]]
    return inst, rater, P, np.zeros(n, np.int64)


def oracle(fn, *args) -> float:  # type: ignore[no-untyped-def]
    """Run an oracle; nan when it fails on degenerate data."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return float(fn(*args))
        except (ZeroDivisionError, ValueError, FloatingPointError):
            return float("nan")


def check(ours: Estimate, theirs: float) -> None:
    if np.isnan(theirs):
        assert ours.value is None and ours.reason, "oracle undefined, ours defined"
    else:
        assert ours.value is not None, ours.reason
        assert ours.value == pytest.approx(theirs, abs=TOL)


def nltk_oracle(L: np.ndarray, method: str) -> float:
    """NLTK's figure; nan on a single category, where NLTK returns 1.0 by its own
    policy but metrics.md section 3 says kappa is undefined (Pr(E) = 1)."""
    if len(np.unique(L)) == 1:
        return float("nan")
    return oracle(lambda: getattr(task(L), method)())


def task(L: np.ndarray) -> AnnotationTask:
    return AnnotationTask(data=[(f"c{r}", f"i{i}", int(L[r, i])) for r in range(L.shape[0]) for i in range(L.shape[1])])


@settings(max_examples=150, deadline=None)
@given(labels(2, 2))
def test_cohen_equals_sklearn(L: np.ndarray) -> None:
    _, _, P, _ = long_form(L)
    n = L.shape[1]
    res = pairwise_agreement(P[:n], P[n:])
    check(res.cohen.kappa, oracle(cohen_kappa_score, L[0], L[1]))


@settings(max_examples=100, deadline=None)
@given(labels(2, 2))
def test_scott_equals_nltk_pi(L: np.ndarray) -> None:
    _, _, P, _ = long_form(L)
    n = L.shape[1]
    res = pairwise_agreement(P[:n], P[n:])
    check(res.scott.kappa, nltk_oracle(L, 'pi'))


@settings(max_examples=100, deadline=None)
@given(labels(2, 5))
def test_fleiss_equals_statsmodels_and_nltk_multi_pi(L: np.ndarray) -> None:
    inst, rater, P, lexelt = long_form(L)
    res = multi_rater_agreement(inst, rater, P, lexelt)
    table = np.stack([(L == c).sum(axis=0) for c in range(int(L.max()) + 1)], axis=1)
    check(res.fleiss.kappa, oracle(fleiss_kappa, table, "fleiss"))
    check(res.fleiss.kappa, nltk_oracle(L, 'pi'))


@settings(max_examples=100, deadline=None)
@given(labels(2, 5))
def test_conger_equals_nltk_multi_kappa(L: np.ndarray) -> None:
    inst, rater, P, lexelt = long_form(L)
    res = multi_rater_agreement(inst, rater, P, lexelt)
    check(res.conger.kappa, nltk_oracle(L, 'multi_kappa'))


@settings(max_examples=60, deadline=None)
@given(labels(2, 5))
def test_mean_pairwise_cohen_equals_nltk_kappa(L: np.ndarray) -> None:
    inst, rater, P, lexelt = long_form(L)
    M = pairwise_matrix(inst, rater, P, lexelt)
    theirs = nltk_oracle(L, 'kappa')
    # NLTK has no policy for a pair with undefined kappa (it raises or averages nan): another draw
    assume(not M.reason_cohen[np.triu_indices(L.shape[0], 1)].any())
    check(M.mean_kappa("cohen"), theirs)


@settings(max_examples=60, deadline=None)
@given(labels(2, 5), st.randoms(use_true_random=False))
def test_matrix_cell_equals_pairwise_with_missing(L: np.ndarray, rnd) -> None:  # type: ignore[no-untyped-def]
    inst, rater, P, lexelt = long_form(L)
    keep = np.array([rnd.random() < 0.7 for _ in inst], dtype=bool)
    inst, rater, P = inst[keep], rater[keep], P[keep]
    M = pairwise_matrix(inst, rater, P, lexelt, n_raters=L.shape[0])
    for a in range(L.shape[0]):
        for b in range(a + 1, L.shape[0]):
            shared = sorted(set(inst[rater == a]) & set(inst[rater == b]))
            pa = np.array([P[(rater == a) & (inst == i)][0] for i in shared]).reshape(-1, P.shape[1])
            pb = np.array([P[(rater == b) & (inst == i)][0] for i in shared]).reshape(-1, P.shape[1])
            res = pairwise_agreement(pa, pb, n_lexelts=1)
            assert M.n[a, b] == len(shared)
            for cell, est in ((M.kappa_cohen[a, b], res.cohen.kappa), (M.kappa_scott[a, b], res.scott.kappa)):
                if est.value is None:
                    assert cell is np.ma.masked
                else:
                    assert float(cell) == pytest.approx(est.value, abs=TOL)


def test_degenerate_single_category_is_undefined_with_reason() -> None:
    P = np.ones((4, 1))
    res = pairwise_agreement(P, P)
    assert res.cohen.kappa.value is None and "Pr(E) = 1" in (res.cohen.kappa.reason or "")
    assert res.scott.observed == 1.0
    empty = pairwise_agreement(np.zeros((0, 3)), np.zeros((0, 3)))
    assert empty.cohen.kappa.value is None and "no instance" in (empty.cohen.kappa.reason or "")
    multi = multi_rater_agreement([0, 0, 1, 1], [0, 1, 0, 1], np.ones((4, 1)), [0, 0])
    assert multi.fleiss.kappa.value is None and multi.conger.kappa.value is None
    lonely = multi_rater_agreement([0, 1], [0, 1], np.eye(2), [0, 0])
    assert lonely.fleiss.kappa.value is None and lonely.fleiss.n == 0
