"""Bootstrap confidence intervals for system scores, and the paired bootstrap.

Instances are resampled with replacement *within* each lexelt (stratified:
every resample keeps each lexelt's instance count, so ``total`` is fixed); the
lexelts too small to resample alone are drawn together as one stratum
(:mod:`hieradjudicate.core.stats.strata`).
For resample ``b`` with index row ``I_b``:
``precision_b = sum score[I_b] / sum attempted[I_b]``,
``recall_b = sum score[I_b] / n``; the percentile interval takes the
``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles (linear
interpolation, ``numpy.percentile``).

The paired bootstrap scores two systems on the *same* resamples and reports
the interval of ``recall_A - recall_B``, the share of resamples in which A
beats B, and p-value style figures (Koehn 2004; Efron & Tibshirani 1993).

Everything is vectorised: the resamples are drawn as blocks of index rows
(one uniform draw per block, mapped into each column's stratum) and summed
with a gather; there is no Python loop over resampled instances.

References
----------
B. Efron and R. Tibshirani (1993), *An Introduction to the Bootstrap*.
P. Koehn (2004), "Statistical significance tests for machine translation
evaluation", EMNLP.  ``metrics.md`` section 3, "Confidence intervals".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.stats.bca import DEFAULT_METHOD, interval
from hieradjudicate.core.stats.strata import score_strata

#: Resamples drawn per block; fixed so that results depend only on the seed.
BLOCK = 32


@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile bootstrap interval.

    ``estimate``, ``low`` and ``high`` are ``None`` (with ``reason``) when the
    figure is undefined; ``n_undefined`` resamples on which it was undefined
    (precision with nothing attempted) are left out of the percentiles.
    """

    estimate: float | None
    low: float | None
    high: float | None
    n_resamples: int
    n_undefined: int = 0
    reason: str | None = None
    method: str = "percentile"


@dataclass(frozen=True)
class ScoreBootstrap:
    precision: Interval
    recall: Interval
    confidence: float
    n_resamples: int
    seed: int


@dataclass(frozen=True)
class PairedBootstrap:
    """Paired bootstrap of ``metric_A - metric_B`` on shared resamples.

    ``share_a_better`` = share of resamples with a positive difference,
    ``share_tie`` = with a zero difference; ``p_a_not_better`` = share with a
    difference ``<= 0`` (Koehn's one-sided figure for "A is better");
    ``p_two_sided = min(1, 2 * min(share <= 0, share >= 0))``.
    """

    metric: str
    difference: Interval
    share_a_better: float
    share_tie: float
    p_a_not_better: float
    p_two_sided: float
    confidence: float
    n_resamples: int
    seed: int


def _strata(strata: np.ndarray | None, n: int) -> np.ndarray:
    if strata is None:
        return np.zeros(n, dtype=np.int64)
    s = np.asarray(strata)
    if s.shape != (n,):
        raise ValueError(f"strata has shape {s.shape}; expected ({n},)")
    return score_strata(s)[0]


def resample_indices(strata: np.ndarray, *, n_resamples: int = 1000, seed: int = 0
                     ) -> Iterator[np.ndarray]:
    """Yield blocks of stratified bootstrap index rows, shape (block, n).

    Column ``j`` of every row is drawn uniformly from the instances of
    ``strata[j]``'s stratum, so each row holds exactly as many instances of
    every stratum as the data.  Blocks are ``BLOCK`` rows (the last may be
    shorter) and come from one ``numpy.random.default_rng(seed)`` stream.
    """
    code = np.asarray(strata, dtype=np.int64)
    n = code.shape[0]
    order = np.argsort(code, kind="stable")
    sizes = np.bincount(code)
    starts = np.cumsum(sizes) - sizes
    col_start = starts[code[order]]
    col_size = sizes[code[order]]
    rng = np.random.default_rng(seed)
    done = 0
    while done < n_resamples:
        b = min(BLOCK, n_resamples - done)
        u = rng.random((b, n))
        pos = col_start + np.minimum((u * col_size).astype(np.int64), col_size - 1)
        yield order[pos]
        done += b


def _percentiles(values: np.ndarray, confidence: float) -> tuple[float, float]:
    lo, hi = np.percentile(values, [50 * (1 - confidence), 50 * (1 + confidence)])
    return float(lo), float(hi)


def _interval(estimate: float | None, values: np.ndarray, confidence: float, why: str,
              method: str = "percentile", jack: np.ndarray | None = None,
              strata: np.ndarray | None = None) -> Interval:
    ok = values[~np.isnan(values)]
    n_undef = int(values.size - ok.size)
    if estimate is None or ok.size == 0:
        return Interval(None, None, None, int(values.size), n_undef, why, method)
    if method == "percentile":
        lo, hi = _percentiles(ok, confidence)
        return Interval(estimate, lo, hi, int(values.size), n_undef, None, method)
    if jack is not None:
        keep = ~np.isnan(jack)
        jack, strata = jack[keep], None if strata is None else strata[keep]
    lo, hi, used = interval(ok, estimate, confidence, method, jack, strata)
    return Interval(estimate, lo, hi, int(values.size), n_undef, None, used)


def _clean(score: np.ndarray, attempted: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(score, dtype=np.float64)
    a = (~np.isnan(s)).astype(np.float64) if attempted is None else np.asarray(attempted, np.float64)
    if a.shape != s.shape or s.ndim != 1:
        raise ValueError(f"score {s.shape} and attempted {a.shape} must be equal 1-d shapes")
    return np.nan_to_num(s, nan=0.0), a


def _check(n_resamples: int, confidence: float) -> None:
    if n_resamples < 1:
        raise ValueError(f"n_resamples = {n_resamples}; expected at least 1")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence = {confidence}; expected a value between 0 and 1")


def _ratio(num: np.ndarray, den: np.ndarray | float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.asarray(den) > 0, num / np.where(np.asarray(den) > 0, den, 1.0), np.nan)


def bootstrap_scores(
    score: np.ndarray,
    attempted: np.ndarray | None = None,
    *,
    strata: np.ndarray | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    method: str = DEFAULT_METHOD,
) -> ScoreBootstrap:
    """Stratified bootstrap intervals (BCa by default, or percentile) for precision and recall.

    Parameters
    ----------
    score : ndarray of float, shape (n,)
        Per-instance score over the gold instances; NaN = not answered.
    attempted : ndarray of float, shape (n,), optional
        Attempted weight (default 1 where answered, 0 where NaN).
    strata : ndarray, shape (n,), optional
        Lexelt (any labels) of every instance; default: one stratum.
    n_resamples, seed, confidence
        Default 1000 resamples, seed 0, 95 % interval.
    method
        ``"bca"`` (acceleration from the jackknife within each stratum) or ``"percentile"``.

    Examples
    --------
    >>> r = bootstrap_scores(np.array([1.0, 0.0, 1.0, np.nan]), n_resamples=200)
    >>> round(r.precision.estimate, 3), round(r.recall.estimate, 3)
    (0.667, 0.5)
    """
    _check(n_resamples, confidence)
    s, a = _clean(score, attempted)
    n = s.shape[0]
    if n == 0:
        why = "no gold instances"
        empty = Interval(None, None, None, 0, 0, why)
        return ScoreBootstrap(empty, empty, confidence, n_resamples, seed)
    code = _strata(strata, n)
    cols = np.stack([s, a], axis=1)
    sums = np.concatenate([cols[idx].sum(axis=1) for idx in
                           resample_indices(code, n_resamples=n_resamples, seed=seed)])
    S, A = sums[:, 0], sums[:, 1]
    p_est = float(s.sum() / a.sum()) if a.sum() > 0 else None
    # leave-one-out values for the acceleration: the sums less one instance (its stratum one smaller)
    jack_p = _ratio(s.sum() - s, a.sum() - a) if method == "bca" else None
    jack_r = (s.sum() - s) / max(n - 1, 1) if method == "bca" else None
    precision = _interval(p_est, _ratio(S, A), confidence, "nothing attempted (attempted = 0)",
                          method, jack_p, code)
    recall = _interval(float(s.sum() / n), S / n, confidence, "no gold instances", method, jack_r, code)
    return ScoreBootstrap(precision, recall, confidence, n_resamples, seed)


def paired_bootstrap(
    score_a: np.ndarray,
    score_b: np.ndarray,
    attempted_a: np.ndarray | None = None,
    attempted_b: np.ndarray | None = None,
    *,
    strata: np.ndarray | None = None,
    metric: str = "recall",
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> PairedBootstrap:
    """Paired stratified bootstrap of the difference between two systems.

    Both systems are scored on the same resamples of the same gold
    instances; ``diff_b = metric_A(b) - metric_B(b)`` with ``metric`` in
    ``{"recall", "precision"}``.  Resamples where precision is undefined for
    either system are left out and counted.
    """
    _check(n_resamples, confidence)
    if metric not in ("recall", "precision"):
        raise ValueError(f"metric {metric!r}; expected 'recall' or 'precision'")
    sa, aa = _clean(score_a, attempted_a)
    sb, ab = _clean(score_b, attempted_b)
    if sa.shape != sb.shape:
        raise ValueError(f"systems scored on {sa.shape[0]} and {sb.shape[0]} instances; expected the same")
    n = sa.shape[0]
    if n == 0:
        empty = Interval(None, None, None, 0, 0, "no gold instances")
        return PairedBootstrap(metric, empty, 0.0, 0.0, 1.0, 1.0, confidence, n_resamples, seed)
    code = _strata(strata, n)
    # One gather-sum per block over the columns score_A, score_B, attempted_A, attempted_B.
    cols = np.stack([sa, sb, aa, ab], axis=1)
    sums = np.concatenate([cols[idx].sum(axis=1) for idx in
                           resample_indices(code, n_resamples=n_resamples, seed=seed)])
    if metric == "recall":
        diff = (sums[:, 0] - sums[:, 1]) / n
        est: float | None = float((sa.sum() - sb.sum()) / n)
    else:
        diff = _ratio(sums[:, 0], sums[:, 2]) - _ratio(sums[:, 1], sums[:, 3])
        est = (float(sa.sum() / aa.sum() - sb.sum() / ab.sum())
               if aa.sum() > 0 and ab.sum() > 0 else None)
    interval = _interval(est, diff, confidence, "precision undefined (nothing attempted)")
    ok = diff[~np.isnan(diff)]
    if ok.size == 0:
        return PairedBootstrap(metric, interval, 0.0, 0.0, 1.0, 1.0, confidence, n_resamples, seed)
    better = float(np.mean(ok > 0))
    tie = float(np.mean(ok == 0))
    not_better = float(np.mean(ok <= 0))
    two = min(1.0, 2.0 * min(not_better, float(np.mean(ok >= 0))))
    return PairedBootstrap(metric, interval, better, tie, not_better, two, confidence, n_resamples, seed)
