"""BCa intervals (#13 item 5): the jackknife, the formula against scipy, and coverage by simulation."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.core.agreement.alpha import alpha_stats, krippendorff_alpha
from hieradjudicate.core.stats.bca import acceleration, bias_correction, interval
from hieradjudicate.core.agreement.bootstrap import (
    _alpha_stat,
    _fleiss_stat,
    _fleiss_V,
    _pair_stat,
    _pair_V,
    alpha_jackknife,
    bootstrap_fleiss,
    fleiss_jackknife,
    bootstrap_pairwise,
    jackknife,
)
from hieradjudicate.core.scoring.score_bootstrap import bootstrap_scores
from tests.core.test_agreement_bootstrap import correlated, pair_arrays


def test_acceleration_of_the_mean_is_its_skewness_formula() -> None:
    x = np.random.default_rng(0).exponential(size=40)
    jack = (x.sum() - x) / (len(x) - 1)  # leave-one-out means
    d = x - x.mean()
    # for the mean, a = sum d^3 / (6 (sum d^2)^1.5) (Efron & Tibshirani 1993, eq. 14.15)
    assert acceleration(jack) == pytest.approx(np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5), rel=1e-12)


def test_bias_correction_and_percentile_when_unbiased() -> None:
    reps = np.linspace(-1, 1, 1001)
    assert bias_correction(reps, 0.0) == pytest.approx(0.0, abs=1e-12)
    lo, hi, used = interval(reps, 0.0, 0.95, "bca", jack=np.array([0.1, -0.1, 0.1, -0.1]))
    assert used == "bca"
    p_lo, p_hi, _ = interval(reps, 0.0, 0.95, "percentile")
    assert (lo, hi) == pytest.approx((p_lo, p_hi), abs=1e-12)  # z0 = 0, a = 0: BCa is the percentile interval
    assert interval(reps, 5.0, 0.95, "bca")[2].startswith("percentile (BCa undefined")


def test_bca_equals_scipy_on_a_mean() -> None:
    """scipy.stats.bootstrap(method='BCa') as a test-only oracle (its own draws: Monte Carlo tolerance)."""
    stats = pytest.importorskip("scipy.stats")
    x = np.random.default_rng(3).beta(0.5, 3.0, size=80)
    ours = bootstrap_scores(x, n_resamples=40_000, seed=5).recall
    ref = stats.bootstrap((x,), np.mean, method="BCa", n_resamples=40_000, random_state=7).confidence_interval
    assert ours.method == "bca"
    assert ours.low == pytest.approx(ref.low, abs=0.004)
    assert ours.high == pytest.approx(ref.high, abs=0.004)
    pct = bootstrap_scores(x, n_resamples=40_000, seed=5, method="percentile").recall
    assert abs(pct.high - ref.high) > abs(ours.high - ref.high)  # the skew matters here


def _naive_jack(fn, n: int) -> np.ndarray:
    return np.array([fn(np.delete(np.arange(n), i)) for i in range(n)])


def test_vectorised_jackknife_equals_leave_one_out_recomputation() -> None:
    """Every lexelt resampled alone (min_stratum 1), a unit is an instance; the lexelts drawn whole
    are tests/core/test_agreement_intervals_with_small_lexelts.py's."""
    inst, rater, P, lex = correlated(4, n=50)
    pa, pb, shared = pair_arrays(inst, rater, P, 0, 1)
    lx = lex[shared]
    (js, oks, _), (jc, okc, _) = jackknife(_pair_stat(P.shape[1]), _pair_V(pa, pb), lx, 4, min_stratum=1)
    naive_c = _naive_jack(lambda k: pairwise_agreement(pa[k], pb[k], lx[k], n_lexelts=4).cohen.kappa.value,
                          len(lx))
    naive_s = _naive_jack(lambda k: pairwise_agreement(pa[k], pb[k], lx[k], n_lexelts=4).scott.kappa.value,
                          len(lx))
    assert oks.all() and okc.all()
    assert jc == pytest.approx(naive_c, abs=1e-12) and js == pytest.approx(naive_s, abs=1e-12)
    # Fleiss and alpha: leave one pairable instance out
    lay = make_layout(inst, rater, P, lex).pairable()
    (jf, _, _), = jackknife(_fleiss_stat(P.shape[1]), _fleiss_V(lay), lay.seg_lex, 4, min_stratum=1)
    st = alpha_stats(lay, "nominal")
    (ja, _, _), = jackknife(_alpha_stat(st.dist, "within"), np.column_stack([st.do_i, st.s_i]),
                              st.seg_lex, 4, min_stratum=1)

    def without(i: int):
        keep = inst != lay.seg_inst[i]
        return inst[keep], rater[keep], P[keep]

    for i in range(0, len(lay.seg_inst), 7):
        a, r, p = without(i)
        assert jf[i] == pytest.approx(multi_rater_agreement(a, r, p, lex, n_lexelts=4).fleiss.kappa.value,
                                      abs=1e-12)
        assert ja[i] == pytest.approx(krippendorff_alpha(a, r, p, lex, n_lexelts=4).alpha.value, abs=1e-12)


@pytest.mark.parametrize("lexelt_chance", ["within", "pooled"])
@pytest.mark.parametrize("distance", ["nominal", "tree"])
def test_alpha_jackknife_by_lexelt_equals_the_whole_leave_one_out(lexelt_chance: str, distance: str) -> None:
    inst, rater, P, lex = correlated(6, n=80, X=5)
    lex[lex == 3] = 4  # lexelt 3 holds no unit
    lay = make_layout(inst, rater, P, lex, n_lexelts=5).pairable()
    dist = "nominal"
    if distance == "tree":
        d = np.random.default_rng(2).uniform(0.2, 1.0, size=(5, 4, 4))
        dist = (d + d.transpose(0, 2, 1)) / 2
    st = alpha_stats(lay, dist)
    V = np.column_stack([st.do_i, st.s_i])
    (want, ok_want, _), = jackknife(_alpha_stat(st.dist, lexelt_chance), V, st.seg_lex, 5)
    got, ok, strata = alpha_jackknife(V, st.seg_lex, 5, st.dist, lexelt_chance)
    assert ok.all() and (ok == ok_want).all() and (strata == st.seg_lex).all()
    assert np.ptp(got) > 1e-4  # leaving units out moves alpha: a comparison that can fail
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_fleiss_jackknife_by_lexelt_equals_the_whole_leave_one_out() -> None:
    inst, rater, P, lex = correlated(7, n=80, X=5)
    lex[lex == 2] = 0  # lexelt 2 holds no unit
    lay = make_layout(inst, rater, P, lex, n_lexelts=5).pairable()
    V = _fleiss_V(lay)
    (want, ok_want, _), = jackknife(_fleiss_stat(P.shape[1]), V, lay.seg_lex, 5)
    got, ok, strata = fleiss_jackknife(V, lay.seg_lex, 5, P.shape[1])
    assert ok.all() and (ok == ok_want).all() and (strata == lay.seg_lex).all()
    assert np.ptp(got) > 1e-4  # leaving units out moves kappa: a comparison that can fail
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def _pair_population(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    joint = np.array([[0.30, 0.05, 0.02], [0.04, 0.25, 0.06], [0.03, 0.05, 0.20]])
    cells = rng.choice(9, size=n, p=joint.ravel())
    return np.eye(3)[cells // 3], np.eye(3)[cells % 3]


def coverage(method: str, trials: int, seed: int = 0, n: int = 60, resamples: int = 400) -> float:
    """Share of simulated samples whose interval holds the population Cohen kappa."""
    joint = np.array([[0.30, 0.05, 0.02], [0.04, 0.25, 0.06], [0.03, 0.05, 0.20]])
    po, pe = np.trace(joint), joint.sum(1) @ joint.sum(0)
    truth = (po - pe) / (1 - pe)
    rng = np.random.default_rng(seed)
    hits = 0
    for t in range(trials):
        pa, pb = _pair_population(rng, n)
        _, cohen = bootstrap_pairwise(pa, pb, n_resamples=resamples, seed=t, method=method)
        hits += cohen.low <= truth <= cohen.high
    return hits / trials


def test_coverage_by_simulation() -> None:
    """Nominal 95 %: over 300 samples of 60 instances the BCa interval holds the true kappa ~95 % of the time."""
    c = coverage("bca", 300)
    print(f"BCa coverage of the population Cohen kappa: {c:.3f} (300 samples of 60)")
    assert 0.91 <= c <= 0.985  # binomial sd at 300 trials: 0.013


def test_wsbest_like_fleiss_interval_corrects_the_resampling_bias() -> None:
    """26 lexelts x 10 instances (WSbest's shape): resampled chance agreement is biased upward, so
    percentile replicates sit below the estimate; BCa moves the interval up by that bias."""
    rng = np.random.default_rng(1)
    X, n_x, R, K = 26, 10, 8, 4
    lex = np.repeat(np.arange(X), n_x)
    truth = rng.integers(0, K, size=X * n_x)
    inst = np.repeat(np.arange(X * n_x), R)
    rater = np.tile(np.arange(R), X * n_x)
    labels = np.where(rng.random(len(inst)) < 0.55, truth[inst], rng.integers(0, K, len(inst)))
    P = np.eye(K)[labels]
    pct = bootstrap_fleiss(inst, rater, P, lex, n_resamples=1000, method="percentile")
    bca = bootstrap_fleiss(inst, rater, P, lex, n_resamples=1000)
    assert pct.bias < 0  # replicates below the estimate
    assert bca.low <= bca.estimate.value <= bca.high
    assert bca.low > pct.low and bca.high > pct.high


def test_wsbest_interval_holds_its_estimate_and_names_its_bias(realdata) -> None:
    """WSbest (26 lexelts of 10 instances): the percentile interval of Fleiss 0.397 was [0.337, 0.404],
    the estimate at its top edge; BCa holds it and the output names the bootstrap bias it corrects."""
    import json
    import subprocess
    import sys

    d = realdata / "wsbest"
    out = subprocess.run([sys.executable, "-m", "hieradjudicate", "agree", "--inventory",
                          str(d / "inventory_tree.tsv"), "--annotations",
                          str(d / "wsbest_selected_senses_per_annotator.tsv"), "--ci", "1000", "--format", "json"],
                         capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    for key, est in (("fleiss", doc["fleiss"]["kappa"]), ("alpha", doc["alpha"]["value"])):
        lo, hi = doc["ci"][key]
        assert lo < est < hi, (key, lo, est, hi)
        assert doc["ci"][f"{key}_method"] == "bca" and doc["ci"][f"{key}_bias"] < 0
    assert doc["ci"]["method"].startswith("BCa")


@pytest.mark.parametrize("values", [np.array([3, 3, 1, 7, 1]), np.array([0, 1, 2, 2, 0]), np.array([5]),
                                    np.random.default_rng(1).integers(0, 300, 4000), np.array([2**40, 3]),
                                    np.array([-1, 2, 2]), np.array([1.5, 0.5, 1.5]), np.array(["b", "a", "b"]),
                                    np.zeros(0, np.int64), np.array([0, 0, 0], np.int8)])
def test_dense_codes_are_what_unique_gives_as_inverse_and_counts(values: np.ndarray) -> None:
    from hieradjudicate.core.stats.bca import dense_codes

    codes, counts = dense_codes(values)
    _, inverse, expected = np.unique(values, return_inverse=True, return_counts=True)
    assert codes.tolist() == inverse.reshape(-1).tolist() and counts.tolist() == expected.tolist()
