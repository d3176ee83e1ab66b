"""Bootstrap intervals for system scores, checked against a naive loop."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.scoring.score_bootstrap import bootstrap_scores, paired_bootstrap, resample_indices


@pytest.fixture
def data():
    rng = np.random.default_rng(3)
    n = 60
    lex = rng.choice(["a.n", "b.v", "c.a"], size=n)
    sa = np.where(rng.random(n) < .15, np.nan, rng.choice([0, .5, 1], size=n))
    sb = np.where(rng.random(n) < .05, np.nan, rng.choice([0, 1], size=n))
    att = np.where(np.isnan(sa), 0.0, np.where(rng.random(n) < .2, 0.5, 1.0))
    return lex, sa, sb, att


def rows(lex, B, seed):
    code = np.unique(lex, return_inverse=True)[1]
    return np.concatenate(list(resample_indices(code, n_resamples=B, seed=seed)))


def test_resamples_are_stratified_and_seeded(data):
    lex = data[0]
    idx = rows(lex, 70, 5)
    assert idx.shape == (70, lex.size)
    for r in idx:
        for name in set(lex):
            assert np.sum(lex[r] == name) == np.sum(lex == name)
    np.testing.assert_array_equal(idx, rows(lex, 70, 5))
    assert not np.array_equal(idx, rows(lex, 70, 6))


def test_against_naive_loop(data):
    lex, sa, _, att = data
    B = 50
    r = bootstrap_scores(sa, att, strata=lex, n_resamples=B, seed=11, method="percentile")
    prec, rec = [], []
    for row in rows(lex, B, 11):
        s_sum = a_sum = 0.0
        for i in row:
            s_sum += 0.0 if np.isnan(sa[i]) else sa[i]
            a_sum += att[i]
        prec.append(s_sum / a_sum)
        rec.append(s_sum / len(row))
    assert r.precision.low == pytest.approx(np.percentile(prec, 2.5), abs=1e-12)
    assert r.precision.high == pytest.approx(np.percentile(prec, 97.5), abs=1e-12)
    assert r.recall.low == pytest.approx(np.percentile(rec, 2.5), abs=1e-12)
    assert r.recall.high == pytest.approx(np.percentile(rec, 97.5), abs=1e-12)
    assert r.recall.estimate == pytest.approx(np.nansum(sa) / sa.size)
    assert r.precision.estimate == pytest.approx(np.nansum(sa) / att.sum())
    assert r.precision.low <= r.precision.estimate <= r.precision.high


def test_paired_against_naive_loop(data):
    lex, sa, sb, att = data
    B = 40
    r = paired_bootstrap(sa, sb, strata=lex, n_resamples=B, seed=2)
    a0, b0 = np.nan_to_num(sa), np.nan_to_num(sb)
    diffs = [sum(a0[i] - b0[i] for i in row) / len(row) for row in rows(lex, B, 2)]
    assert r.difference.low == pytest.approx(np.percentile(diffs, 2.5), abs=1e-12)
    assert r.difference.high == pytest.approx(np.percentile(diffs, 97.5), abs=1e-12)
    assert r.share_a_better == pytest.approx(np.mean(np.array(diffs) > 1e-15))
    assert r.p_a_not_better == pytest.approx(1 - r.share_a_better)
    p = paired_bootstrap(sa, sb, att, None, strata=lex, metric="precision", n_resamples=B, seed=2)
    dp = []
    for row in rows(lex, B, 2):
        dp.append(a0[row].sum() / att[row].sum() - b0[row].sum() / (~np.isnan(sb[row])).sum())
    assert p.difference.low == pytest.approx(np.percentile(dp, 2.5), abs=1e-12)


def test_system_against_itself():
    s = np.array([1.0, 0.0, 1.0, 0.5])
    r = paired_bootstrap(s, s, n_resamples=100)
    assert r.share_a_better == 0.0 and r.share_tie == 1.0 and r.p_two_sided == 1.0
    assert r.difference.low == r.difference.high == 0.0


def test_undefined_precision():
    # a lexelt of ten unanswered instances and one of one answered instance (the only small lexelt, so
    # kept as its own stratum): stratum 1 always contributes its answered instance
    r = bootstrap_scores(np.array([np.nan] * 10 + [1.0]), strata=np.array([0] * 10 + [1]), n_resamples=200)
    assert r.precision.n_undefined == 0
    # two small lexelts are drawn together: a resample may then hold no answered instance
    r = bootstrap_scores(np.array([np.nan, np.nan, 1.0]), strata=np.array([0, 0, 1]), n_resamples=200)
    assert 0 < r.precision.n_undefined < 200
    r = bootstrap_scores(np.array([np.nan, np.nan]), n_resamples=20)
    assert r.precision.estimate is None and r.precision.low is None
    assert r.precision.reason and r.recall.estimate == 0.0
    r = bootstrap_scores(np.array([np.nan, 1.0]), n_resamples=400, seed=1)
    assert 0 < r.precision.n_undefined < 400 and r.precision.low == 1.0
    assert bootstrap_scores(np.zeros(0)).recall.estimate is None
    with pytest.raises(ValueError):
        bootstrap_scores(np.ones(3), n_resamples=0)
    with pytest.raises(ValueError):
        paired_bootstrap(np.ones(3), np.ones(4))
