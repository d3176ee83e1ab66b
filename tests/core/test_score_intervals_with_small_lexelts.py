"""A score's bootstrap interval keeps its 95 % when most lexelts hold one or two instances (all-words data).

Resampled within such lexelts, an instance alone in its lexelt is drawn every time: the interval lost
most of its width (the WSD framework's semeval2015: 512 lemmas for 1,022 instances).  The lexelts of
fewer than MIN_STRATUM instances are now drawn together; lexical-sample data keep a stratum per lexelt.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.scoring.score_bootstrap import bootstrap_scores
from hieradjudicate.core.stats.strata import MIN_STRATUM, score_strata, strata_text


def _all_words_sample(rng: np.random.Generator, n_lexelts: int = 150) -> tuple[np.ndarray, np.ndarray]:
    """Lexelts of one to three instances; each lexelt's chance of a right answer from Beta(3, 2)."""
    sizes = rng.integers(1, 4, n_lexelts)
    p = rng.beta(3.0, 2.0, n_lexelts)
    lex = np.repeat(np.arange(n_lexelts), sizes)
    return (rng.random(lex.size) < p[lex]).astype(float), lex


def test_precision_interval_covers_the_population_value_at_its_nominal_rate_on_all_words_data() -> None:
    rng = np.random.default_rng(12)
    truth = 3.0 / 5.0  # the mean of Beta(3, 2): the population's precision
    trials, hits = 300, 0
    for t in range(trials):
        score, lex = _all_words_sample(rng)
        ci = bootstrap_scores(score, strata=lex, n_resamples=400, seed=t, method="percentile").precision
        hits += ci.low <= truth <= ci.high
    coverage = hits / trials
    # 0.94 here; each lexelt alone (the old strata) covered 0.78; the noise of 300 trials is +-0.025
    assert 0.90 <= coverage <= 0.99, coverage


def test_small_lexelts_are_one_stratum_and_large_ones_keep_their_own() -> None:
    lex = np.array(["big"] * MIN_STRATUM + ["a", "b", "b", "c"] + ["other"] * (MIN_STRATUM + 1))
    codes, pooled = score_strata(lex)
    assert pooled == 3
    assert len(set(codes[:MIN_STRATUM])) == 1 and len(set(codes[-(MIN_STRATUM + 1):])) == 1
    assert len({*codes[MIN_STRATUM:MIN_STRATUM + 4]}) == 1  # a, b, c together
    assert len(set(codes)) == 3
    assert "3 lexelts of fewer than 10 instances drawn together" in strata_text(pooled)


def test_lexical_sample_strata_and_intervals_are_unchanged() -> None:
    rng = np.random.default_rng(3)
    lex = np.repeat(np.array(["x", "y", "z"]), [14, 30, 12])
    codes, pooled = score_strata(lex)
    assert pooled == 0
    assert np.array_equal(codes, np.unique(lex, return_inverse=True)[1])
    # one small lexelt has nobody to be pooled with: it keeps its stratum
    one_small = np.repeat(np.array(["x", "y"]), [3, 30])
    assert score_strata(one_small)[1] == 0
    score = (rng.random(lex.size) < 0.6).astype(float)
    a = bootstrap_scores(score, strata=lex, n_resamples=300, seed=1).precision
    b = bootstrap_scores(score, strata=codes, n_resamples=300, seed=1).precision
    assert (a.low, a.high) == (b.low, b.high)
