"""Agreement intervals keep their 95 % when most lexelts hold one to three instances (all-words data).

Kappa and alpha take chance agreement within each lexelt.  Resampled within its lexelt, a lexelt of
one instance is drawn every time and shows no variance; the lexelts of fewer than MIN_STRATUM units
are therefore resampled *whole*, as one stratum (a lexelt's chance agreement stays its own), while
the larger lexelts' instances are still drawn within their lexelt.  Lexical-sample data (every
lexelt of MIN_STRATUM units or more) are resampled exactly as before.
"""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.core.agreement.alpha import alpha_stats, krippendorff_alpha
from hieradjudicate.core.agreement.bootstrap import (
    _alpha_stat,
    _fleiss_V,
    _pair_stat,
    _pair_V,
    alpha_jackknife,
    bootstrap_alpha,
    bootstrap_fleiss,
    bootstrap_pairwise,
    fleiss_jackknife,
    jackknife,
)
from hieradjudicate.core.agreement.lexelt_intervals import fleiss_intervals
from hieradjudicate.core.agreement.resampling import resample_indices
from hieradjudicate.core.stats.strata import MIN_STRATUM, lexelt_strata

K = 3


def _labels(rng: np.random.Generator, lex: np.ndarray, m: int, agree: float) -> list[np.ndarray]:
    """``m`` annotators' leaves: each lexelt's senses drawn from its own Dirichlet(1) mix; an annotator
    gives the instance's true sense with probability ``agree``, else a fresh draw from the mix."""
    mix = rng.dirichlet(np.ones(K), int(lex.max()) + 1)[lex].cumsum(axis=1)

    def draw() -> np.ndarray:
        return np.minimum((rng.random(lex.size)[:, None] > mix).sum(axis=1), K - 1)

    truth = draw()
    return [np.where(rng.random(lex.size) < agree, truth, draw()) for _ in range(m)]


def _all_words(rng: np.random.Generator, n_lexelts: int, m: int = 2, agree: float = 0.6):
    """Lexelts of one to three instances (all-words data) and ``m`` annotators' leaves."""
    lex = np.repeat(np.arange(n_lexelts), rng.integers(1, 4, n_lexelts))
    return _labels(rng, lex, m, agree), lex


def _long(labels: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = labels[0].size
    return (np.tile(np.arange(n), len(labels)), np.repeat(np.arange(len(labels)), n),
            np.eye(K)[np.concatenate(labels)])


def _mixed(seed: int, m: int):
    """Small lexelts among two of lexical-sample size."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 4, 14)
    sizes[[2, 9]] = [MIN_STRATUM + 5, MIN_STRATUM + 2]
    lex = np.repeat(np.arange(sizes.size), sizes)
    return _labels(rng, lex, m, 0.6), lex, sizes


def _replay(sizes: np.ndarray, B: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each resample as the naive bootstrap draws it: ``(instances, lexelt labels)``, a lexelt of the
    pooled stratum drawn whole and each of its copies a lexelt of its own."""
    stratum_of, pooled = lexelt_strata(sizes)
    assert pooled >= 2
    starts = np.concatenate([[0], np.cumsum(sizes)])
    members = [np.flatnonzero(stratum_of == s) for s in range(int(stratum_of.max()) + 1)]
    units = [len(x) if len(x) > 1 else int(sizes[x[0]]) for x in members]
    rows: list[list[np.ndarray]] = [[] for _ in range(B)]
    labs: list[list[np.ndarray]] = [[] for _ in range(B)]
    for s, b0, b1, idx in resample_indices(np.array(units), B, seed):
        lexs = members[s]
        for j in range(b1 - b0):
            if len(lexs) == 1:
                rows[b0 + j].append(starts[lexs[0]] + idx[j])
                labs[b0 + j].append(np.full(len(idx[j]), lexs[0]))
                continue
            for copy, t in enumerate(idx[j]):
                x = lexs[t]
                rows[b0 + j].append(np.arange(starts[x], starts[x + 1]))
                labs[b0 + j].append(np.full(sizes[x], sizes.size + 1000 * s + copy))
    return [(np.concatenate(r), np.concatenate(lb)) for r, lb in zip(rows, labs, strict=True)]


def test_small_lexelts_resampled_whole_give_the_figures_of_the_naive_resamples() -> None:
    labels, lex, sizes = _mixed(1, 3)
    B, seed = 15, 4
    pa, pb = np.eye(K)[labels[0]], np.eye(K)[labels[1]]
    scott, cohen = bootstrap_pairwise(pa, pb, lex, n_resamples=B, seed=seed)
    inst, rater, P = _long(labels)
    fl = bootstrap_fleiss(inst, rater, P, lex, n_resamples=B, seed=seed)
    al = bootstrap_alpha(inst, rater, P, lex, n_resamples=B, seed=seed)
    assert scott.pooled == fl.pooled == al.pooled == int(((sizes > 0) & (sizes < MIN_STRATUM)).sum())
    for b, (rows, lab) in enumerate(_replay(sizes, B, seed)):
        _, new_lex = np.unique(lab, return_inverse=True)
        X = int(new_lex.max()) + 1
        pair = pairwise_agreement(pa[rows], pb[rows], new_lex, n_lexelts=X)
        assert scott.replicates[b] == pytest.approx(pair.scott.kappa.value, abs=1e-12)
        assert cohen.replicates[b] == pytest.approx(pair.cohen.kappa.value, abs=1e-12)
        args = _long([lb[rows] for lb in labels]) + (new_lex,)
        assert fl.replicates[b] == pytest.approx(multi_rater_agreement(*args, n_lexelts=X).fleiss.kappa.value,
                                                 abs=1e-12)
        assert al.replicates[b] == pytest.approx(krippendorff_alpha(*args, n_lexelts=X).alpha.value, abs=1e-12)


def test_the_jackknife_leaves_out_a_small_lexelt_whole_and_an_instance_of_a_large_one() -> None:
    labels, lex, sizes = _mixed(2, 3)
    pa, pb = np.eye(K)[labels[0]], np.eye(K)[labels[1]]
    small = np.flatnonzero(sizes < MIN_STRATUM)
    big_rows = np.flatnonzero(~np.isin(lex, small))
    X = sizes.size
    # the units: the large lexelts' instances (their lexelt their stratum), then the small lexelts
    leave_out = [np.array([i]) for i in big_rows] + [np.flatnonzero(lex == x) for x in small]
    want_strata = np.concatenate([lex[big_rows], np.full(small.size, X)])
    (js, _, strata), (jc, _, _) = jackknife(_pair_stat(K), _pair_V(pa, pb), lex, X)
    assert np.array_equal(strata, want_strata)
    inst, rater, P = _long(labels)
    lay = make_layout(inst, rater, P, lex).pairable()
    assert np.array_equal(lay.seg_lex, lex)  # every instance has three annotations: all pairable
    jf, _, f_strata = fleiss_jackknife(_fleiss_V(lay), lay.seg_lex, X, K)
    st = alpha_stats(lay, "nominal")
    ja, _, a_strata = alpha_jackknife(np.column_stack([st.do_i, st.s_i]), st.seg_lex, X, st.dist)
    (ja_generic, _, _), = jackknife(_alpha_stat(st.dist, "within"), np.column_stack([st.do_i, st.s_i]),
                                    st.seg_lex, X)
    assert np.array_equal(f_strata, want_strata) and np.array_equal(a_strata, want_strata)
    np.testing.assert_allclose(ja, ja_generic, rtol=0, atol=1e-12)
    for u, out in enumerate(leave_out):
        keep = np.setdiff1d(np.arange(lex.size), out)
        pair = pairwise_agreement(pa[keep], pb[keep], lex[keep], n_lexelts=X)
        assert (js[u], jc[u]) == pytest.approx((pair.scott.kappa.value, pair.cohen.kappa.value), abs=1e-12)
        args = _long([lb[keep] for lb in labels]) + (lex[keep],)
        assert jf[u] == pytest.approx(multi_rater_agreement(*args, n_lexelts=X).fleiss.kappa.value, abs=1e-12)
        assert ja[u] == pytest.approx(krippendorff_alpha(*args, n_lexelts=X).alpha.value, abs=1e-12)


def _coverage(truth: float, trials: int, min_stratum: int, method: str) -> float:
    rng = np.random.default_rng(7)
    hits = 0
    for t in range(trials):
        labels, lex = _all_words(rng, 100)
        _, cohen = bootstrap_pairwise(np.eye(K)[labels[0]], np.eye(K)[labels[1]], lex, n_resamples=300,
                                      seed=t, method=method, min_stratum=min_stratum)
        hits += cohen.low <= truth <= cohen.high
    return hits / trials


def test_cohen_kappa_interval_covers_the_population_value_at_its_nominal_rate_on_all_words_data() -> None:
    # the population value: the figure on 100,000 lexelts drawn as the samples are
    labels, lex = _all_words(np.random.default_rng(99), 100_000)
    truth = pairwise_agreement(np.eye(K)[labels[0]], np.eye(K)[labels[1]], lex,
                               n_lexelts=100_000).cohen.kappa.value
    new = _coverage(truth, 120, MIN_STRATUM, "bca")
    old = _coverage(truth, 120, 1, "percentile")  # every lexelt resampled alone: the old strata
    print(f"coverage of Cohen's kappa {truth:.3f}: small lexelts resampled whole {new:.3f}, "
          f"each lexelt alone {old:.3f}")
    # seed 7: 0.925 whole, 0.417 alone (percentile; its BCa covers less); binomial sd at 120 trials: 0.02
    assert new >= 0.88 and old < new - 0.3, (new, old)


def test_lexical_sample_data_are_resampled_as_before() -> None:
    """Every lexelt of MIN_STRATUM instances or more: no stratum pooled, the intervals those of every
    lexelt resampled alone (min_stratum 1) to the bit."""
    rng = np.random.default_rng(5)
    lex = np.repeat(np.arange(6), [MIN_STRATUM, 14, 30, 11, MIN_STRATUM, 20])
    labels = _labels(rng, lex, 3, 0.7)
    pa, pb = np.eye(K)[labels[0]], np.eye(K)[labels[1]]
    inst, rater, P = _long(labels)
    for new, old in ((bootstrap_pairwise(pa, pb, lex, n_resamples=200)[1],
                      bootstrap_pairwise(pa, pb, lex, n_resamples=200, min_stratum=1)[1]),
                     (bootstrap_fleiss(inst, rater, P, lex, n_resamples=200),
                      bootstrap_fleiss(inst, rater, P, lex, n_resamples=200, min_stratum=1)),
                     (bootstrap_alpha(inst, rater, P, lex, n_resamples=200),
                      bootstrap_alpha(inst, rater, P, lex, n_resamples=200, min_stratum=1))):
        assert new.pooled == 0 and new.strata == "stratified by lexelt"
        assert (new.low, new.high) == (old.low, old.high)
        assert np.array_equal(new.replicates.filled(np.nan), old.replicates.filled(np.nan), equal_nan=True)


def test_each_lexelts_own_interval_is_still_its_own_resampling_when_the_overall_one_pools() -> None:
    labels, lex, sizes = _mixed(3, 3)
    inst, rater, P = _long(labels)
    overall, per = fleiss_intervals(inst, rater, P, lex, n_resamples=200)
    assert overall.pooled > 0 and overall.low == bootstrap_fleiss(inst, rater, P, lex, n_resamples=200).low
    _, alone = fleiss_intervals(inst, rater, P, lex, n_resamples=200, min_stratum=1)
    assert [(c.low, c.high) for c in per if c] == [(c.low, c.high) for c in alone if c]
    assert any(c.low != c.high for c in per if c)


def test_the_pairs_jackknife_recomputing_one_lexelt_equals_the_one_recomputing_all() -> None:
    """pair_jackknife (only the left-out unit's lexelt recomputed: units x leaves, not units x every
    lexelt's leaves) gives the general jackknife's leave-one-out kappas, with and without pooling."""
    from hieradjudicate.core.agreement.bootstrap import _pair_stat, _pair_V, jackknife, pair_jackknife

    rng = np.random.default_rng(3)
    for X, n, K, min_stratum in ((5, 200, 4, 10), (60, 150, 6, 10), (60, 150, 6, 1)):
        lex = rng.integers(0, X, n)
        V = _pair_V(rng.dirichlet(np.full(K, 0.3), n), rng.dirichlet(np.full(K, 0.3), n))
        for (a, ok_a, s_a), (b, ok_b, s_b) in zip(pair_jackknife(V, lex, X, K, min_stratum),
                                                  jackknife(_pair_stat(K), V, lex, X, min_stratum), strict=True):
            assert (ok_a == ok_b).all() and (s_a == s_b).all()
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
