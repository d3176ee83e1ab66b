"""Krippendorff's alpha on flat data equals the ``krippendorff`` package, missing data included;
lexelt handling, distances and the coincidence matrix."""

from __future__ import annotations

import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hieradjudicate.core.agreement.alpha import (
    interval_distance,
    krippendorff_alpha,
    ordinal_distance,
    ratio_distance,
)

TOL = 1e-9


@st.composite
def reliability(draw: st.DrawFn, missing: bool) -> np.ndarray:
    """(raters x units) float matrix of category codes, nan = missing."""
    m = draw(st.integers(2, 5))
    n = draw(st.integers(2, 20))
    q = draw(st.integers(1, 5))
    vals = draw(st.lists(st.integers(0, q - 1), min_size=m * n, max_size=m * n))
    R = np.array(vals, dtype=float).reshape(m, n)
    if missing:
        holes = draw(st.lists(st.booleans(), min_size=m * n, max_size=m * n))
        R[np.array(holes).reshape(m, n)] = np.nan
    return R


def ours(R: np.ndarray, **kw):  # type: ignore[no-untyped-def]
    rater, inst = np.nonzero(~np.isnan(R))
    q = int(np.nanmax(R)) + 1 if rater.size else 1
    P = np.eye(q)[R[rater, inst].astype(int)]
    return krippendorff_alpha(inst, rater, P, np.zeros(R.shape[1], np.int64), **kw)


def theirs(R: np.ndarray, level: str) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return float(krippendorff.alpha(reliability_data=R, level_of_measurement=level))
        except (ValueError, ZeroDivisionError):
            return float("nan")


def _check(est, ref: float) -> None:  # type: ignore[no-untyped-def]
    if np.isnan(ref):
        assert est.value is None and est.reason
    else:
        assert est.value is not None, est.reason
        assert est.value == pytest.approx(ref, abs=TOL)


@pytest.mark.parametrize("missing", [False, True])
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_nominal_equals_krippendorff(missing: bool, data: st.DataObject) -> None:
    R = data.draw(reliability(missing))
    if np.isnan(R).all():
        assert ours(R).alpha.value is None
        return
    _check(ours(R).alpha, theirs(R, "nominal"))


@settings(max_examples=60, deadline=None)
@given(reliability(True))
def test_ordinal_interval_ratio_equal_krippendorff(R: np.ndarray) -> None:
    assume(not np.isnan(R).all())  # no value at all: the nominal test checks that alpha is undefined
    q = int(np.nanmax(R)) + 1
    _check(ours(R, distance="ordinal").alpha, theirs(R, "ordinal"))
    _check(ours(R, distance=interval_distance(np.arange(q))).alpha, theirs(R, "interval"))
    # ratio on values 1..q (the package's ratio metric on 0 is 0/0 for the pair (0, 0) only)
    _check(ours(R + 1, distance=ratio_distance(np.arange(q + 1))).alpha, theirs(R + 1, "ratio"))


def test_lexelts_are_separate_categories_and_chance_is_within() -> None:
    # Two lexelts, each with perfect agreement-free noise; pooled alpha is inflated.
    rng = np.random.default_rng(0)
    n, K = 60, 3
    inst = np.repeat(np.arange(n), 2)
    rater = np.tile([0, 1], n)
    P = np.eye(K)[rng.integers(0, K, size=2 * n)]
    lexelt = (np.arange(n) >= n // 2).astype(np.int64)
    within = krippendorff_alpha(inst, rater, P, lexelt)
    pooled = krippendorff_alpha(inst, rater, P, lexelt, lexelt_chance="pooled")
    # pooled == the package run on lexelt-distinct category codes
    codes = P.argmax(1) + K * lexelt[inst]
    R = np.full((2, n), np.nan)
    R[rater, inst] = codes
    assert pooled.alpha.value == pytest.approx(theirs(R, "nominal"), abs=TOL)
    assert pooled.alpha.value > within.alpha.value
    # within: D_e is the n_x-weighted mean of the lexelts' D_e
    per = [krippendorff_alpha(inst[lexelt[inst] == x], rater[lexelt[inst] == x], P[lexelt[inst] == x],
                              lexelt) for x in (0, 1)]
    de = sum(r.n_pairable * r.expected_disagreement for r in per) / within.n_pairable
    assert within.expected_disagreement == pytest.approx(de, abs=TOL)
    for x in (0, 1):
        assert within.lexelt_alpha[x].value == pytest.approx(per[x].alpha.value, abs=TOL)


def test_tree_distance_per_lexelt_and_undefined() -> None:
    # leaf_dist (X, K, K): with a 0/1 distance it is the nominal alpha
    inst, rater = np.repeat(np.arange(4), 2), np.tile([0, 1], 4)
    P = np.eye(3)[[0, 0, 1, 2, 2, 2, 0, 1]]
    lexelt = np.array([0, 0, 1, 1])
    d = np.broadcast_to(1.0 - np.eye(3), (2, 3, 3))
    a = krippendorff_alpha(inst, rater, P, lexelt, distance=np.array(d))
    b = krippendorff_alpha(inst, rater, P, lexelt)
    assert a.alpha.value == pytest.approx(b.alpha.value, abs=TOL)
    one = krippendorff_alpha(inst, rater, np.eye(3)[[0] * 8], lexelt)
    assert one.alpha.value is None and "D_e = 0" in (one.alpha.reason or "")
    none = krippendorff_alpha([0, 1], [0, 0], np.eye(2), lexelt[:2])
    assert none.alpha.value is None and none.n_pairable == 0


def test_ordinal_distance_formula() -> None:
    d = ordinal_distance(np.array([2.0, 3.0, 1.0]))
    assert d[0, 1] == pytest.approx((2 + 3 - 2.5) ** 2)
    assert d[0, 2] == pytest.approx((6 - 1.5) ** 2)
    assert np.allclose(d, d.T) and np.allclose(np.diag(d), 0.0)
