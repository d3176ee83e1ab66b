"""Bootstrap CIs: deterministic, sensible, and equal to a naive resample-and-recompute loop."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.agreement.bootstrap import (
    bootstrap_alpha,
    bootstrap_fleiss,
    bootstrap_pairwise,
    resample_indices,
)


def correlated(seed: int, n: int = 300, m: int = 3, K: int = 4, X: int = 4) -> tuple[np.ndarray, ...]:
    """Raters who mostly copy a latent true leaf (kappa well above 0), some missing."""
    rng = np.random.default_rng(seed)
    lex = rng.integers(0, X, size=n)
    truth = rng.integers(0, K, size=n)
    rater, inst = np.nonzero(rng.random((m, n)) < 0.85)
    noisy = np.where(rng.random(len(inst)) < 0.75, truth[inst], rng.integers(0, K, size=len(inst)))
    P = 0.8 * np.eye(K)[noisy] + 0.2 * rng.dirichlet(np.ones(K), size=len(inst))
    return inst, rater, P, lex


def pair_arrays(inst, rater, P, a, b):  # type: ignore[no-untyped-def]
    A = {i: k for k, i in enumerate(inst) if rater[k] == a}
    B = {i: k for k, i in enumerate(inst) if rater[k] == b}
    shared = np.array(sorted(set(A) & set(B)))
    return P[[A[i] for i in shared]], P[[B[i] for i in shared]], shared


def test_deterministic_with_seed_and_contains_estimate() -> None:
    inst, rater, P, lex = correlated(1)
    pa, pb, shared = pair_arrays(inst, rater, P, 0, 1)
    s1, c1 = bootstrap_pairwise(pa, pb, lex[shared], n_resamples=300)
    s2, c2 = bootstrap_pairwise(pa, pb, lex[shared], n_resamples=300)
    assert (s1.low, s1.high, c1.low, c1.high) == (s2.low, s2.high, c2.low, c2.high)
    s3, _ = bootstrap_pairwise(pa, pb, lex[shared], n_resamples=300, seed=7)
    assert s3.low != s1.low
    for ci in (s1, c1, bootstrap_fleiss(inst, rater, P, lex, n_resamples=300),
               bootstrap_alpha(inst, rater, P, lex, n_resamples=300)):
        assert ci.estimate.value is not None and ci.low is not None and ci.high is not None
        assert ci.low < ci.estimate.value < ci.high
        assert 0.0 < ci.high - ci.low < 0.3
        assert ci.n_resamples == 300 and ci.n_undefined == 0 and ci.level == 0.95


def _resampled(idx_by_lexelt: dict[int, np.ndarray], units_by_lexelt: dict[int, np.ndarray]) -> list[np.ndarray]:
    """The resampled units (global unit ids) of one resample, in lexelt order."""
    return [units_by_lexelt[x][idx_by_lexelt[x]] for x in sorted(idx_by_lexelt)]


def _draws(sizes: np.ndarray, B: int, seed: int) -> list[dict[int, np.ndarray]]:
    out: list[dict[int, np.ndarray]] = [{} for _ in range(B)]
    for x, b0, b1, idx in resample_indices(sizes, B, seed):
        for j in range(b1 - b0):
            out[b0 + j][x] = idx[j]
    return out


def test_vectorised_pairwise_equals_naive_loop() -> None:
    inst, rater, P, lex = correlated(2, n=80)
    pa, pb, shared = pair_arrays(inst, rater, P, 0, 2)
    lx = lex[shared]
    B, seed = 25, 11
    scott, cohen = bootstrap_pairwise(pa, pb, lx, n_resamples=B, seed=seed, n_lexelts=4)
    units = {x: np.flatnonzero(lx == x) for x in range(4)}
    for b, draw in enumerate(_draws(np.bincount(lx, minlength=4), B, seed)):
        rows = np.concatenate(_resampled(draw, units))
        res = pairwise_agreement(pa[rows], pb[rows], lx[rows], n_lexelts=4)
        assert scott.replicates[b] == pytest.approx(res.scott.kappa.value, abs=1e-12)
        assert cohen.replicates[b] == pytest.approx(res.cohen.kappa.value, abs=1e-12)


def test_vectorised_fleiss_and_alpha_equal_naive_loop() -> None:
    inst, rater, P, lex = correlated(3, n=60)
    B, seed = 20, 5
    fl = bootstrap_fleiss(inst, rater, P, lex, n_resamples=B, seed=seed)
    al = bootstrap_alpha(inst, rater, P, lex, n_resamples=B, seed=seed)
    lay = make_layout(inst, rater, P, lex).pairable()
    units = {x: lay.seg_inst[lay.seg_lex == x] for x in range(4)}
    sizes = np.bincount(lay.seg_lex, minlength=4)
    for b, draw in enumerate(_draws(sizes, B, seed)):
        drawn = np.concatenate(_resampled(draw, units))
        # rebuild a dataset in which each drawn instance is a new instance
        ni, nr, nP, nl = [], [], [], []
        for new_id, old in enumerate(drawn):
            rows = np.flatnonzero(inst == old)
            ni += [new_id] * len(rows)
            nr += rater[rows].tolist()
            nP.append(P[rows])
            nl.append(lex[old])
        args = (np.array(ni), np.array(nr), np.vstack(nP), np.array(nl))
        f = multi_rater_agreement(*args, n_lexelts=4).fleiss.kappa.value
        a = krippendorff_alpha(*args, n_lexelts=4).alpha.value
        assert fl.replicates[b] == pytest.approx(f, abs=1e-12)
        assert al.replicates[b] == pytest.approx(a, abs=1e-12)


def test_undefined_everywhere_reports_reason() -> None:
    P = np.ones((10, 1))
    s, c = bootstrap_pairwise(P, P, n_resamples=50)
    assert s.estimate.value is None and s.low is None and s.n_undefined == 50 and s.reason


def test_ordinal_alpha_bootstrap_refused() -> None:
    inst, rater, P, lex = correlated(4, n=20)
    with pytest.raises(ValueError):
        bootstrap_alpha(inst, rater, P, lex, distance="ordinal", n_resamples=10)


def test_bootstrap_figures_equals_single_figure_functions() -> None:
    """One shared set of draws gives exactly the intervals of the separate calls (with missing data)."""
    from hieradjudicate.core.agreement.bootstrap import bootstrap_figures

    for data in (correlated(5, n=120), correlated(6, n=90, m=4)):
        inst, rater, P, lex = data
        B, seed = 40, 3
        allf = bootstrap_figures(inst, rater, P, lex, n_lexelts=4, n_resamples=B, seed=seed)
        m = int(rater.max()) + 1
        assert sorted(allf.pairs) == [(a, b) for a in range(m) for b in range(a + 1, m)]
        for (a, b), (s, c) in allf.pairs.items():
            pa, pb, shared = pair_arrays(inst, rater, P, a, b)
            s1, c1 = bootstrap_pairwise(pa, pb, lex[shared], n_lexelts=4, n_resamples=B, seed=seed)
            for x, y in ((s, s1), (c, c1)):
                assert x.estimate == y.estimate and x.n_undefined == y.n_undefined
                np.testing.assert_allclose(x.replicates.filled(np.nan), y.replicates.filled(np.nan), rtol=0, atol=1e-13)
        fl = bootstrap_fleiss(inst, rater, P, lex, n_lexelts=4, n_resamples=B, seed=seed)
        al = bootstrap_alpha(inst, rater, P, lex, n_lexelts=4, n_resamples=B, seed=seed)
        for x, y in ((allf.fleiss, fl), (allf.alpha, al)):
            assert x.estimate == y.estimate
            np.testing.assert_allclose(x.replicates.filled(np.nan), y.replicates.filled(np.nan), rtol=0, atol=1e-13)
            assert x.low == pytest.approx(y.low, abs=1e-13) and x.high == pytest.approx(y.high, abs=1e-13)


def test_pair_intervals_beyond_the_draw_limit_are_named_not_computed() -> None:
    """A crowd project (MASC: 12.7 M shared instance-pairs) gets Fleiss and alpha intervals and a
    sentence instead of hours of pair resampling; below the limit the pairs are computed."""
    from hieradjudicate.core.agreement.bootstrap import bootstrap_figures

    inst, rater, P, lex = correlated(5, n=120)
    small = bootstrap_figures(inst, rater, P, lex, n_lexelts=4, n_resamples=50)
    assert small.pairs_skipped is None and len(small.pairs) == 3
    big = bootstrap_figures(inst, rater, P, lex, n_lexelts=4, n_resamples=50, max_pair_draws=100)
    assert big.pairs == {} and "pair intervals not computed" in big.pairs_skipped
    assert (big.fleiss.low, big.fleiss.high) == (small.fleiss.low, small.fleiss.high)
    units = sum(len(pair_arrays(inst, rater, P, a, b)[2]) for a, b in ((0, 1), (0, 2), (1, 2)))
    assert f"{units:,} instance-pairs" in big.pairs_skipped


def test_a_pair_sharing_no_instance_has_no_interval() -> None:
    from hieradjudicate.core.agreement.bootstrap import bootstrap_figures

    inst = np.array([0, 0, 1, 1, 2, 2])
    rater = np.array([0, 1, 0, 1, 2, 3])
    P = np.eye(2)[[0, 0, 1, 1, 0, 1]]
    bf = bootstrap_figures(inst, rater, P, np.zeros(3, np.int64), pairs=[(0, 1), (0, 2)], n_resamples=20)
    scott, cohen = bf.pairs[(0, 2)]
    assert cohen.low is None and cohen.reason
