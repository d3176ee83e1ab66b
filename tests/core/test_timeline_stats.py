"""Before/after intervals and the forecast (issue 32): coverage at the nominal rate in seeded
simulations, and the forecast against its direct computation."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.stats.timeline_stats import finish_forecast, mean_difference


@pytest.mark.parametrize("paired", [False, True])
def test_difference_interval_covers_the_true_difference_at_the_nominal_rate(paired: bool) -> None:
    rng = np.random.default_rng(11)
    p_before, p_after, n, trials = 0.30, 0.42, 160, 300
    strata = np.repeat(np.arange(8), n // 8)
    hits = 0
    for t in range(trials):
        if paired:  # the same instances, outcomes correlated through an instance effect
            u = rng.random(n)
            yb = (u < p_before).astype(float)
            ya = (u < p_after).astype(float)
            flip = rng.random(n) < 0.1
            ya[flip] = 1.0 - ya[flip]
            truth = (p_after * 0.9 + (1 - p_after) * 0.1) - p_before
        else:
            yb = (rng.random(n) < p_before).astype(float)
            ya = (rng.random(n) < p_after).astype(float)
            truth = p_after - p_before
        d = mean_difference(yb, ya, strata, strata, paired=paired, n_resamples=400, seed=t)
        assert d.paired is paired and d.difference == pytest.approx(ya.mean() - yb.mean())
        hits += d.low <= truth <= d.high
    assert 0.91 <= hits / trials <= 0.985, hits / trials


def test_forecast_is_open_over_the_mean_daily_progress() -> None:
    per_day = np.array([30.0, 0.0, 45.0, 25.0, 50.0])
    f = finish_forecast(per_day, 600, n_resamples=500, seed=0)
    assert f.days == pytest.approx(600 / per_day.mean())
    assert f.days_low < f.days < f.days_high
    assert finish_forecast(np.array([3.0, -3.0]), 10).why == "no progress so far"
    assert finish_forecast(np.array([3.0]), 10).why == "fewer than two days of decisions"


def test_share_interval_is_the_stratified_bootstrap_of_a_share() -> None:
    """Against the per-instance bootstrap of the same share (bootstrap_scores' precision): the two
    draw differently, so their ends agree to the Monte Carlo error, not to the bit."""
    from hieradjudicate.core.scoring.score_bootstrap import bootstrap_scores
    from hieradjudicate.core.stats.timeline_stats import share_interval

    rng = np.random.default_rng(3)
    strata = rng.integers(0, 12, 900)
    y = (rng.random(900) < 0.2 + 0.04 * strata).astype(float)
    lo, hi, _ = share_interval(y, strata, n_resamples=4000, seed=1)
    b = bootstrap_scores(y, np.ones_like(y), strata=strata, n_resamples=4000, seed=1).precision
    assert lo == pytest.approx(b.low, abs=0.006) and hi == pytest.approx(b.high, abs=0.006)
    assert lo < y.mean() < hi


def _raters(n: int, K: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    lex = rng.integers(0, 5, n)
    a = np.eye(K)[rng.integers(0, K, n)]
    b = np.where(rng.random(n)[:, None] < 0.7, a, np.eye(K)[rng.integers(0, K, n)])
    c = np.where(rng.random(n)[:, None] < 0.5, a, np.eye(K)[rng.integers(0, K, n)])
    return lex, a, b, c


def test_drift_with_one_other_on_every_instance_is_that_pairs_bca_interval() -> None:
    from hieradjudicate.core.agreement.bootstrap import bootstrap_pairwise
    from hieradjudicate.core.stats.timeline_stats import mean_kappa_with_others

    lex, a, b, _ = _raters(150, 4, 3)
    value, low, high, why = mean_kappa_with_others(a, [(np.ones(150, bool), b)], lex, n_resamples=400, seed=2)
    _, cohen = bootstrap_pairwise(a, b, lex, n_resamples=400, seed=2)
    assert why is None and low < value < high
    assert value == pytest.approx(cohen.estimate.value, abs=1e-12)
    assert (low, high) == pytest.approx((cohen.low, cohen.high), abs=1e-12)


def test_drift_is_the_mean_of_each_pairs_kappa_on_the_instances_the_other_answered() -> None:
    from hieradjudicate.core.agreement.pairwise import pairwise_agreement
    from hieradjudicate.core.stats.timeline_stats import mean_kappa_with_others

    lex, a, b, c = _raters(200, 5, 8)
    mb = np.arange(200) % 3 != 0  # b answered two thirds of a's instances, c the first 120
    mc = np.arange(200) < 120
    value, low, high, _ = mean_kappa_with_others(a, [(mb, b), (mc, c)], lex, n_resamples=300, seed=1)
    want = np.mean([pairwise_agreement(a[m], o[m], lex[m], n_lexelts=5).cohen.kappa.value
                    for m, o in ((mb, b), (mc, c))])
    assert value == pytest.approx(want, abs=1e-12) and low < value < high


def test_drift_interval_covers_the_populations_drift_at_the_nominal_rate() -> None:
    """Stratified samples (a fixed number of instances per lexelt) of a population of three raters: the
    95 % BCa interval of rater a's mean kappa with the others covers the population's value about 95 %
    of the time (300 seeded samples: 0.90-0.985 holds the nominal rate with room for the simulation's
    own error, about 0.013)."""
    from hieradjudicate.core.stats.timeline_stats import mean_kappa_with_others

    rng = np.random.default_rng(11)
    N, K, X = 6000, 4, 4
    lex = np.repeat(np.arange(X), N // X)
    marg = rng.dirichlet(np.ones(K) * 2, size=X)
    draw = lambda: np.eye(K)[[rng.choice(K, p=marg[x]) for x in lex]]  # noqa: E731
    a = draw()
    b = np.where(rng.random(N)[:, None] < 0.6, a, draw())
    c = np.where(rng.random(N)[:, None] < 0.4, a, draw())
    mc = rng.random(N) < 0.7  # c answered 70 % of a's instances
    truth, *_ = mean_kappa_with_others(a, [(np.ones(N, bool), b), (mc, c)], lex, n_resamples=0)
    covered = 0
    reps = 300
    for r in range(reps):
        pick = np.concatenate([rng.choice(np.flatnonzero(lex == x), 60, replace=False) for x in range(X)])
        _, low, high, _ = mean_kappa_with_others(a[pick], [(np.ones(pick.size, bool), b[pick]), (mc[pick], c[pick])],
                                                 lex[pick], n_resamples=300, seed=r)
        covered += low <= truth <= high
    assert 0.90 <= covered / reps <= 0.985
