"""Every lexelt's Fleiss interval from one stratified resampling (core.lexelt_intervals)."""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.bootstrap import bootstrap_fleiss
from hieradjudicate.core.agreement.lexelt_intervals import fleiss_intervals


def _corpus(seed: int = 0, X: int = 5, per: int = 80, m: int = 4, K: int = 4):
    rng = np.random.default_rng(seed)
    n = X * per
    lex = np.repeat(np.arange(X), per)
    truth = rng.integers(0, K, n)
    inst, rater, leaf = [], [], []
    for i in range(n):
        good = 0.5 + 0.1 * lex[i]  # each lexelt its own agreement
        for r in range(m):
            inst.append(i)
            rater.append(r)
            leaf.append(truth[i] if rng.random() < good else int(rng.integers(0, K)))
    P = np.zeros((len(inst), K))
    P[np.arange(len(inst)), leaf] = 1.0
    return np.array(inst), np.array(rater), P, lex


def test_overall_interval_is_bootstrap_fleiss_and_each_lexelt_is_its_stratum():
    inst, rater, P, lex = _corpus()
    overall, per = fleiss_intervals(inst, rater, P, lex, n_lexelts=5, n_resamples=600)
    ref = bootstrap_fleiss(inst, rater, P, lex, n_lexelts=5, n_resamples=600)
    assert (overall.low, overall.high, overall.estimate) == (ref.low, ref.high, ref.estimate)
    multi = multi_rater_agreement(inst, rater, P, lex, n_lexelts=5)
    lexr = lex[inst]
    for x in range(5):
        assert per[x].estimate.value == multi.lexelt_fleiss[x].kappa.value
        assert per[x].low <= per[x].estimate.value <= per[x].high
        # the lexelt bootstrapped on its own: other draws, the same distribution (Monte Carlo error only)
        sel = lexr == x
        alone = bootstrap_fleiss(inst[sel], rater[sel], P[sel], np.zeros(len(lex), np.int64), n_lexelts=1,
                                 n_resamples=600, seed=x + 11)
        width = alone.high - alone.low
        assert abs(per[x].low - alone.low) < 0.25 * width and abs(per[x].high - alone.high) < 0.25 * width


def test_a_lexelt_without_pairable_instances_has_no_interval():
    inst, rater, P, lex = _corpus(X=2, per=40)
    keep = ~((lex[inst] == 1) & (rater > 0))  # lexelt 1: one annotator per instance
    overall, per = fleiss_intervals(inst[keep], rater[keep], P[keep], lex, n_lexelts=2, n_resamples=200)
    assert per[1] is None and per[0] is not None and overall.low is not None
