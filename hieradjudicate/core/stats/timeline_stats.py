"""Intervals of a change over time: before/after differences and the finishing date (issue 32).

* :func:`mean_difference` -- the difference of two means (a share of 0/1
  outcomes, a mean score) after minus before.  *Paired* when both sides hold
  the same instances (one resample of the instances draws both sides:
  :func:`~hieradjudicate.core.scoring.score_bootstrap.paired_bootstrap`), *unpaired*
  otherwise (each side resampled on its own, within its lexelts, with seeds
  ``seed`` and ``seed + 1``; the interval is the percentile interval of the
  replicate differences).
* :func:`fleiss_difference` -- Fleiss' (soft) kappa after minus before, from
  the per-instance statistics of :mod:`hieradjudicate.core.agreement.bootstrap`.
  Paired when the two layouts hold the same pairable instances: the same
  draws (same lexelt sizes, same seed) resample both, and the BCa interval
  takes the jackknife of the difference; unpaired otherwise.
* :func:`finish_forecast` -- from the progress per calendar day, the days
  until ``open`` instances are done; the interval resamples the days (BCa,
  jackknife over days).

Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.agreement.layout import Layout
from hieradjudicate.core.agreement.multirater import _multi_assemble
from hieradjudicate.core.stats.bca import interval
from hieradjudicate.core.agreement.bootstrap import _fleiss_reps, _fleiss_V, _replicates, fleiss_jackknife, \
    jackknife, resampled_sums
from hieradjudicate.core.scoring.score_bootstrap import paired_bootstrap, resample_indices
from hieradjudicate.core.stats.strata import score_strata


@dataclass(frozen=True)
class Difference:
    before: float | None
    after: float | None
    difference: float | None
    low: float | None
    high: float | None
    paired: bool
    n_before: int
    n_after: int
    method: str
    why: str | None = None


def _percentile(reps: np.ndarray, level: float) -> tuple[float | None, float | None]:
    ok = reps[np.isfinite(reps)]
    if not ok.size:
        return None, None
    q = (1.0 - level) / 2.0
    lo, hi = np.quantile(ok, [q, 1.0 - q])
    return float(lo), float(hi)


def _means(y: np.ndarray, strata: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    code = score_strata(strata)[0]
    return np.concatenate([y[idx].mean(axis=1) for idx in
                           resample_indices(code, n_resamples=n_resamples, seed=seed)])


def mean_difference(y_before: np.ndarray, y_after: np.ndarray, strata_before: np.ndarray,
                    strata_after: np.ndarray, *, paired: bool, n_resamples: int = 1000, seed: int = 0,
                    level: float = 0.95) -> Difference:
    """``mean(y_after) - mean(y_before)`` with its bootstrap interval (see the module docstring).

    Paired needs the two sides in the same instance order (``strata_before`` is then used)."""
    yb, ya = np.asarray(y_before, np.float64), np.asarray(y_after, np.float64)
    nb, na = int(yb.size), int(ya.size)
    if not nb or not na:
        return Difference(float(yb.mean()) if nb else None, float(ya.mean()) if na else None, None, None,
                          None, paired, nb, na, "", "one side has no instance")
    mb, ma = float(yb.mean()), float(ya.mean())
    if n_resamples <= 0:
        return Difference(mb, ma, ma - mb, None, None, paired, nb, na, "", "no resamples")
    if paired:
        if nb != na:
            raise ValueError(f"paired sides of {nb} and {na} instances; expected the same instances")
        r = paired_bootstrap(ya, yb, strata=strata_before, metric="recall", n_resamples=n_resamples,
                             seed=seed, confidence=level).difference
        return Difference(mb, ma, ma - mb, r.low, r.high, True, nb, na, "paired percentile bootstrap")
    reps = _means(ya, np.asarray(strata_after), n_resamples, seed + 1) - \
        _means(yb, np.asarray(strata_before), n_resamples, seed)
    lo, hi = _percentile(reps, level)
    return Difference(mb, ma, ma - mb, lo, hi, False, nb, na, "unpaired percentile bootstrap")


def _precisions(s: np.ndarray, a: np.ndarray, strata: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    code = score_strata(strata)[0]
    cols = np.stack([s, a], axis=1)
    sums = np.concatenate([cols[idx].sum(axis=1) for idx in
                           resample_indices(code, n_resamples=n_resamples, seed=seed)])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sums[:, 1] > 0, sums[:, 0] / np.where(sums[:, 1] > 0, sums[:, 1], 1.0), np.nan)


def precision_difference(s_before: np.ndarray, a_before: np.ndarray, strata_before: np.ndarray,
                         s_after: np.ndarray, a_after: np.ndarray, strata_after: np.ndarray, *, paired: bool,
                         n_resamples: int = 1000, seed: int = 0, level: float = 0.95) -> Difference:
    """A score's precision (``sum(score) / sum(attempted)`` over the instances of a side) after minus
    before, with its bootstrap interval: paired (the same instances, in the same order: one resample
    draws both sides, :func:`~hieradjudicate.core.scoring.score_bootstrap.paired_bootstrap`) or
    unpaired (each side resampled within its lexelts, seeds ``seed`` and ``seed + 1``; the percentile
    interval of the replicate differences)."""
    sb, ab = np.asarray(s_before, np.float64), np.asarray(a_before, np.float64)
    sa, aa = np.asarray(s_after, np.float64), np.asarray(a_after, np.float64)
    nb, na = int(sb.size), int(sa.size)
    pb = float(sb.sum() / ab.sum()) if nb and ab.sum() > 0 else None
    pa = float(sa.sum() / aa.sum()) if na and aa.sum() > 0 else None
    if pb is None or pa is None:
        return Difference(pb, pa, None, None, None, paired, nb, na, "",
                          "nothing attempted on one side" if nb and na else "one side has no instance")
    if n_resamples <= 0:
        return Difference(pb, pa, pa - pb, None, None, paired, nb, na, "", "no resamples")
    if paired:
        if nb != na:
            raise ValueError(f"paired sides of {nb} and {na} instances; expected the same instances")
        r = paired_bootstrap(sa, sb, aa, ab, strata=strata_before, metric="precision", n_resamples=n_resamples,
                             seed=seed, confidence=level).difference
        return Difference(pb, pa, pa - pb, r.low, r.high, True, nb, na, "paired percentile bootstrap")
    reps = _precisions(sa, aa, np.asarray(strata_after), n_resamples, seed + 1) - \
        _precisions(sb, ab, np.asarray(strata_before), n_resamples, seed)
    lo, hi = _percentile(reps, level)
    return Difference(pb, pa, pa - pb, lo, hi, False, nb, na, "unpaired percentile bootstrap")


@dataclass(frozen=True)
class FleissSide:
    """One side of :func:`fleiss_difference`: the per-instance statistics of a layout's pairable
    instances (:func:`~hieradjudicate.core.agreement.bootstrap._fleiss_V`: ``[P_i, s_i, m_i]``),
    in the layout's order (by lexelt, then instance), with each instance and its lexelt.  All the
    difference needs of a layout: a state of the annotations can be kept as it and compared later
    without being rebuilt."""

    V: np.ndarray  # (n, K + 2)
    seg_inst: np.ndarray  # (n,) instance indices
    seg_lex: np.ndarray  # (n,) lexelt codes
    n_lexelts: int

    @property
    def K(self) -> int:
        return int(self.V.shape[1]) - 2

    @property
    def n(self) -> int:
        return int(self.seg_inst.size)

    def kappa(self) -> float | None:
        """Fleiss' kappa, as :func:`~hieradjudicate.core.agreement.multirater.fleiss_agreement` of the
        layout gives it (the same sums in the same order)."""
        if not self.n:
            return None
        X = self.n_lexelts
        bounds = np.searchsorted(self.seg_lex, np.arange(X + 1))
        sums = np.zeros((X, self.V.shape[1]))
        nz = np.flatnonzero(np.diff(bounds) > 0)
        if len(nz):
            sums[nz] = np.add.reduceat(self.V, bounds[nz], axis=0)
        n_x = np.diff(bounds).astype(np.float64)
        K = self.K
        return _multi_assemble(n_x, sums[:, 0], np.zeros(X), sums[:, 1 + K], sums[:, 1:1 + K]).fleiss.kappa.value

    def sorted_by(self, inst: np.ndarray, lex: np.ndarray, n_lexelts: int) -> FleissSide:
        """The same instances under other indices (``inst``/``lex``: each one's new instance and
        lexelt, -1 where it is dropped), in the order of a layout of them (by lexelt, then instance)."""
        keep = np.flatnonzero(np.asarray(inst) >= 0)
        i, x = np.asarray(inst, np.int64)[keep], np.asarray(lex, np.int64)[keep]
        order = np.lexsort((i, x))
        return FleissSide(self.V[keep[order]], i[order], x[order], int(n_lexelts))


def fleiss_side(layout: Layout) -> FleissSide:
    """The :class:`FleissSide` of a layout."""
    lay = layout.pairable()
    return FleissSide(_fleiss_V(lay), lay.seg_inst, lay.seg_lex, lay.n_lexelts)


def fleiss_difference(before: Layout | FleissSide, after: Layout | FleissSide, *, n_resamples: int = 1000,
                      seed: int = 0, level: float = 0.95) -> Difference:
    """Fleiss' kappa of ``after`` minus ``before`` with its bootstrap interval (module docstring)."""
    lb = before if isinstance(before, FleissSide) else fleiss_side(before)
    la = after if isinstance(after, FleissSide) else fleiss_side(after)
    kb, ka = lb.kappa(), la.kappa()
    nb, na = lb.n, la.n
    paired = nb == na and lb.n_lexelts == la.n_lexelts and np.array_equal(lb.seg_inst, la.seg_inst)
    if kb is None or ka is None or not nb or not na:
        return Difference(kb, ka, None, None, None, paired, nb, na, "",
                          "kappa undefined on one side")
    if n_resamples <= 0:
        return Difference(kb, ka, ka - kb, None, None, paired, nb, na, "", "no resamples")
    X, K = la.n_lexelts, la.K
    reps = _fleiss_reps(K)  # each resample's kappa, a block of resamples at a time
    Vb, Va = lb.V, la.V
    if paired:  # the same draws for both sides: drawn once
        (Rb, _, _), (Ra, _, _) = _replicates([(Vb, lb.seg_lex), (Va, la.seg_lex)], [reps, reps], X, n_resamples, seed)
    else:
        (Rb, _, _), = _replicates([(Vb, lb.seg_lex)], [reps], X, n_resamples, seed)
        (Ra, _, _), = _replicates([(Va, la.seg_lex)], [reps], X, n_resamples, seed + 1)
    (rb, okb), = Rb
    (ra, oka), = Ra
    ok = okb & oka
    diff = ra[ok] - rb[ok]
    est = ka - kb
    if paired:  # leave-one-out kappas, only the left-out unit's lexelt recomputed
        jb, jokb, strata = fleiss_jackknife(Vb, lb.seg_lex, X, K)  # the strata of the draws of both
        ja, joka, _ = fleiss_jackknife(Va, la.seg_lex, X, K)
        jok = jokb & joka
        lo, hi, used = interval(diff, est, level, "bca", (ja - jb)[jok], strata[jok])
        return Difference(kb, ka, est, lo, hi, True, nb, na, f"paired {used} bootstrap")
    lo, hi = _percentile(diff, level)
    return Difference(kb, ka, est, lo, hi, False, nb, na, "unpaired percentile bootstrap")


@dataclass(frozen=True)
class Forecast:
    open: int
    per_day: float | None  # mean progress per calendar day
    days: float | None  # expected days until done
    days_low: float | None
    days_high: float | None
    n_days: int
    why: str | None = None


def finish_forecast(progress_per_day: np.ndarray, open_: int, *, n_resamples: int = 1000, seed: int = 0,
                    level: float = 0.95) -> Forecast:
    """Days until ``open_`` instances are done at the mean of ``progress_per_day`` (one value per
    calendar day, zeros included); the interval resamples the days.  A resample whose mean progress
    is not positive never finishes: it counts as infinitely long (an open upper end, ``None``)."""
    d = np.asarray(progress_per_day, np.float64)
    if open_ <= 0:
        return Forecast(open_, float(d.mean()) if d.size else None, 0.0, 0.0, 0.0, int(d.size))
    if d.size < 2:
        return Forecast(open_, float(d.mean()) if d.size else None, None, None, None, int(d.size),
                        "fewer than two days of decisions")
    rate = float(d.mean())
    if rate <= 0:
        return Forecast(open_, rate, None, None, None, int(d.size), "no progress so far")
    if n_resamples <= 0:
        return Forecast(open_, rate, open_ / rate, None, None, int(d.size), "no resamples")
    rng = np.random.default_rng(seed)
    reps = d[rng.integers(0, d.size, size=(n_resamples, d.size))].mean(axis=1)
    days = np.where(reps > 0, open_ / np.where(reps > 0, reps, 1.0), np.inf)
    jack = (d.sum() - d) / (d.size - 1)
    jdays = np.where(jack > 0, open_ / np.where(jack > 0, jack, 1.0), np.inf)
    fin = np.isfinite(jdays)
    lo, hi, _ = interval(np.minimum(days, 1e12), open_ / rate, level, "bca", jdays[fin] if fin.sum() > 1 else None)
    return Forecast(open_, rate, open_ / rate, lo, None if hi >= 1e12 else hi, int(d.size))


def share_interval(y: np.ndarray, strata: np.ndarray, *, n_resamples: int = 1000, seed: int = 0,
                   level: float = 0.95) -> tuple[float | None, float | None, str]:
    """BCa interval of the share of ones among 0/1 outcomes ``y``, resampled within ``strata``.

    Drawing ``n_x`` outcomes with replacement from a stratum holding ``k_x`` ones gives
    Binomial(``n_x``, ``k_x / n_x``) ones: the stratified bootstrap of a share, drawn per stratum
    and resample (``X x B`` numbers) instead of per instance (``n x B``: MASC's 44,682 decided
    instances cost seconds per point).  The acceleration is from the jackknife within strata
    (leaving one instance out is closed-form).
    """
    y = np.asarray(y, np.float64)
    if not y.size:
        return None, None, ""
    code = score_strata(strata)[0]
    n_x = np.bincount(code).astype(np.int64)
    k_x = np.bincount(code, weights=y)
    rng = np.random.default_rng(seed)
    ones = rng.binomial(n_x[None, :], (k_x / n_x)[None, :], size=(n_resamples, n_x.size))
    reps = ones.sum(axis=1) / y.size
    est = float(y.mean())
    jack = (y.sum() - y) / max(y.size - 1, 1)
    return interval(reps, est, level, "bca", jack, code)


#: above this many resampled sums (resamples x lexelts x columns) a drift point has no interval
MAX_DRIFT_CELLS = 3e7


def mean_kappa_with_others(pa: np.ndarray, others: list[tuple[np.ndarray, np.ndarray]], lex: np.ndarray, *,
                           n_resamples: int = 1000, seed: int = 0, level: float = 0.95
                           ) -> tuple[float | None, float | None, float | None, str | None]:
    """``(value, low, high, why)``: rater *a*'s mean Cohen's kappa with each other rater over *a*'s
    instances (the rows of ``pa``), each pair on the instances the other answered, with its BCa interval.

    ``others[j] = (answered, pb)``: a mask over *a*'s rows and the other's distributions on them (any
    rows where it did not answer).  A pair's kappa is the instance-weighted corpus kappa with
    per-lexelt chance agreement (:func:`~hieradjudicate.core.agreement.bootstrap.bootstrap_pairwise`'s,
    on the pair's shared instances); the value is the mean over the pairs whose kappa is defined.
    One stratified resample of *a*'s instances (within lexelts, those of fewer than 10 together) draws
    every pair at once; BCa with the jackknife over *a*'s instances, grouped by the same strata."""
    from hieradjudicate.core.agreement.bootstrap import _kappas

    pa = np.asarray(pa, np.float64)
    if not others or not pa.shape[0]:
        return None, None, None, "no other annotator on these instances"
    used = np.flatnonzero((pa != 0).any(axis=0) | np.any([(pb[m] != 0).any(axis=0) for m, pb in others], axis=0))
    K = used.size  # only the leaves in use: the sums stay small
    pa = pa[:, used]
    cols = []
    for m, pb in others:
        c = np.asarray(m, np.float64)[:, None]
        pb = np.asarray(pb, np.float64)[:, used] * c
        cols.append(np.hstack([c, np.einsum("ik,ik->i", pa, pb)[:, None], pa * c, pb]))
    V = np.hstack(cols)
    _, lexc = np.unique(np.asarray(lex, np.int64), return_inverse=True)
    X, m_o, w = int(lexc.max()) + 1, len(others), 2 + 2 * K

    def stat(T: np.ndarray, _n_x: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        T = T.reshape(*T.shape[:2], m_o, w)
        nx = T[..., 0]  # (B, X, m): each pair's shared instances per lexelt
        n = nx.sum(axis=1)
        obs = T[..., 1].sum(axis=1) / np.maximum(n, 1.0)
        pe_x = np.einsum("bxmk,bxmk->bxm", T[..., 2:2 + K], T[..., 2 + K:]) / np.maximum(nx, 1.0) ** 2
        pe = (pe_x * nx).sum(axis=1) / np.maximum(n, 1.0)
        k, ok = _kappas(obs, pe, n)
        cnt = ok.sum(axis=1)
        return [(np.where(cnt > 0, (k * ok).sum(axis=1) / np.maximum(cnt, 1), 0.0), cnt > 0)]

    S = np.zeros((X, V.shape[1]))
    np.add.at(S, lexc, V)
    (est, ok_est), = stat(S[None], np.zeros((1, X)))
    value = float(est[0]) if ok_est[0] else None
    if value is None:
        return None, None, None, "no other annotator with a defined kappa"
    if n_resamples <= 0:
        return value, None, None, "no resamples"
    if n_resamples * X * V.shape[1] > MAX_DRIFT_CELLS:
        return value, None, None, "no interval: too many lexelts and annotators that week for the resamples"
    T = resampled_sums(V, lexc, X, n_resamples, seed).T  # a pair's counts per lexelt are in column 0
    vals, ok = stat(T, np.zeros((1, X)))[0]
    if not ok.any():
        return value, None, None, "the figure is undefined in every resample"
    (jv, jok, js), = jackknife(stat, V, lexc, X)
    lo, hi, _ = interval(vals[ok], value, level, "bca", jv[jok], js[jok])
    return value, lo, hi, None
