"""Properties every agreement metric shares (sklearn-style common tests).

Symmetry in the raters, invariance to the order of instances, to renaming
raters and to permuting leaf columns, perfect agreement gives 1, and the
granularity roll-up behaves (leaf depth = leaf figure; one group = undefined).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement, pairwise_matrix
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.agreement.granularity import rollup, specific_agreement
from hieradjudicate.core.stats.undefined import Estimate

TOL = 1e-10
Data = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def soft_data(seed: int, n: int = 40, m: int = 4, K: int = 5, X: int = 3, missing: float = 0.3) -> Data:
    rng = np.random.default_rng(seed)
    inst_lexelt = rng.integers(0, X, size=n)
    rater, inst = np.nonzero(rng.random((m, n)) >= missing)
    P = rng.dirichlet(np.full(K, 0.3), size=len(inst))
    return inst, rater, P, inst_lexelt


def figures(inst: np.ndarray, rater: np.ndarray, P: np.ndarray, lexelt: np.ndarray) -> dict[str, Estimate]:
    multi = multi_rater_agreement(inst, rater, P, lexelt)
    M = pairwise_matrix(inst, rater, P, lexelt, n_raters=int(rater.max()) + 1)
    out = {
        "fleiss": multi.fleiss.kappa, "conger": multi.conger.kappa,
        "fleiss_macro": multi.macro_fleiss, "alpha": krippendorff_alpha(inst, rater, P, lexelt).alpha,
        "alpha_pooled": krippendorff_alpha(inst, rater, P, lexelt, lexelt_chance="pooled").alpha,
        "mean_cohen": M.mean_kappa("cohen"), "mean_scott": M.mean_kappa("scott"),
    }
    return out


def assert_same(a: dict[str, Estimate], b: dict[str, Estimate]) -> None:
    for key in a:
        if a[key].value is None:
            assert b[key].value is None, key
        else:
            assert b[key].value == pytest.approx(a[key].value, abs=TOL), key


SEEDS = st.integers(0, 10_000)


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_pairwise_symmetric_in_raters(seed: int) -> None:
    inst, rater, P, lex = soft_data(seed)
    M = pairwise_matrix(inst, rater, P, lex)
    for arr in (M.kappa_cohen, M.kappa_scott, M.observed, M.expected_cohen, M.macro_scott):
        assert np.array_equal(arr.mask, arr.mask.T)
        assert np.allclose(arr.filled(0), arr.filled(0).T, atol=TOL)
    a, b = P[:20], P[20:40]
    lx = lex[:20]
    r1, r2 = pairwise_agreement(a, b, lx, n_lexelts=3), pairwise_agreement(b, a, lx, n_lexelts=3)
    assert r1.cohen.kappa.value == pytest.approx(r2.cohen.kappa.value, abs=TOL)
    assert r1.scott.kappa.value == pytest.approx(r2.scott.kappa.value, abs=TOL)
    assert np.allclose(specific_agreement(a, b, lx).filled(-1), specific_agreement(b, a, lx).filled(-1))


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_invariant_to_row_order_instance_ids_and_rater_names(seed: int) -> None:
    inst, rater, P, lex = soft_data(seed)
    ref = figures(inst, rater, P, lex)
    rng = np.random.default_rng(seed + 1)
    rows = rng.permutation(len(inst))
    assert_same(ref, figures(inst[rows], rater[rows], P[rows], lex))
    ids = rng.permutation(len(lex))  # renumber instances
    new_lex = np.empty_like(lex)
    new_lex[ids] = lex
    assert_same(ref, figures(ids[inst], rater, P, new_lex))
    names = rng.permutation(int(rater.max()) + 1)  # rename raters
    assert_same(ref, figures(inst, names[rater], P, lex))


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_invariant_to_renaming_senses(seed: int) -> None:
    inst, rater, P, lex = soft_data(seed)
    cols = np.random.default_rng(seed).permutation(P.shape[1])
    assert_same(figures(inst, rater, P, lex), figures(inst, rater, P[:, cols], lex))
    a, b = P[:20], P[20:40]
    r1 = pairwise_agreement(a, b, lex[:20], n_lexelts=3)
    r2 = pairwise_agreement(a[:, cols], b[:, cols], lex[:20], n_lexelts=3)
    assert r1.scott.kappa.value == pytest.approx(r2.scott.kappa.value, abs=TOL)
    assert r1.cohen.kappa.value == pytest.approx(r2.cohen.kappa.value, abs=TOL)


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_identical_annotations_give_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, K, m = 30, 4, 3
    lex = rng.integers(0, 2, size=n)
    one = np.eye(K)[rng.integers(0, K, size=n)]
    one[:2] = np.eye(K)[[0, 1]]  # both lexelts non-degenerate
    one[lex == 0] = np.eye(K)[np.arange((lex == 0).sum()) % 2]
    one[lex == 1] = np.eye(K)[2 + np.arange((lex == 1).sum()) % 2]
    inst = np.repeat(np.arange(n), m)
    rater = np.tile(np.arange(m), n)
    P = one[inst]
    res = pairwise_agreement(one, one, lex)
    assert res.cohen.kappa.value == pytest.approx(1.0) and res.scott.kappa.value == pytest.approx(1.0)
    f = figures(inst, rater, P, lex)
    for key in ("fleiss", "conger", "alpha", "mean_cohen", "mean_scott", "fleiss_macro"):
        assert f[key].value == pytest.approx(1.0, abs=TOL), key


def _rolled(groups: np.ndarray) -> Callable[[Data], Data]:
    def f(d: Data) -> Data:
        inst, rater, P, lex = d
        X = int(lex.max()) + 1
        lg = np.broadcast_to(groups, (X, len(groups)))
        return inst, rater, rollup(P, lex[inst], lg, int(groups.max()) + 1), lex
    return f


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_rollup_at_leaf_depth_equals_leaf_figure(seed: int) -> None:
    d = soft_data(seed)
    K = d[2].shape[1]
    rolled = _rolled(np.arange(K))(d)
    assert np.array_equal(rolled[2], d[2])
    assert_same(figures(*d), figures(*rolled))


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_rollup_to_one_group_makes_kappa_undefined(seed: int) -> None:
    d = soft_data(seed)
    inst, rater, P, lex = _rolled(np.zeros(d[2].shape[1], np.int64))(d)
    assert np.allclose(P, 1.0)
    f = figures(inst, rater, P, lex)
    for key in ("fleiss", "conger", "alpha", "alpha_pooled" if lex.max() == 0 else "fleiss", "mean_cohen"):
        assert f[key].value is None and f[key].reason, key
    res = pairwise_agreement(P[:10], P[10:20], lex[:10])
    assert res.cohen.kappa.value is None and "Pr(E) = 1" in (res.cohen.kappa.reason or "")
