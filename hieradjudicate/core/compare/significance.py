"""Paired significance tests between two systems scored on the same gold instances.

For two systems ``A`` and ``B`` with per-instance scores ``s`` (soft answers
keep their score, never rounded to 0/1; unanswered = 0) and attempted
weights ``a`` over the same ``n`` gold instances, with ``S = sum s`` and
``W = sum a``:

* ``precision = S / W``, ``recall = S / n``, ``F1 = 2 P R / (P + R) = 2 S / (W + n)``
  (undefined where ``W = 0``, as in :mod:`hieradjudicate.core.scoring.figures`);
* **paired bootstrap** (Koehn 2004; Berg-Kirkpatrick et al. 2012): instances are
  resampled with replacement, both systems scored on the same resample, and the
  percentile interval of ``metric_A - metric_B`` is reported;
* **approximate randomization** (Noreen 1989; Riezler & Maxwell 2005): in each
  shuffle the two systems' answers are swapped on every instance with
  probability 1/2 (unanswered instances included: an answer swapped with no
  answer moves its attempted weight too); the p-value is
  ``(1 + #{shuffles with |diff| >= |observed diff|}) / (1 + shuffles)``;
* **McNemar's exact test** on per-instance correctness (``score >= threshold``):
  with ``b`` instances only ``A`` gets right and ``c`` only ``B``,
  ``p = min(1, 2 P[Bin(b + c, 1/2) <= min(b, c)])``;
* **Holm's** step-down correction of a family of p-values.

Vectorisation
-------------
The statistics depend on an instance only through its row
``(s_A, s_B, a_A, a_B)``.  Instances are grouped by distinct row (``G`` groups,
a handful for hard answers).  Swapping each of the ``m_g`` instances of group
``g`` with a fair coin swaps ``K_g ~ Binomial(m_g, 1/2)`` of them, and which ones
does not change the sums: one shuffle is one binomial draw per *group*, exactly
the same distribution as one coin per instance.  Likewise a bootstrap resample
of ``n`` instances is one multinomial draw of the group counts.  Shuffles and
resamples are drawn in blocks from one ``numpy.random.default_rng(seed)``
stream: there is no Python loop per instance or per shuffle.  The draws are made with the two
systems in one order fixed by the data (see ``_second_first``): B against A is A against B
mirrored, whichever order the caller gives them in.

References
----------
E. W. Noreen (1989), *Computer-Intensive Methods for Testing Hypotheses*.
S. Riezler and J. T. Maxwell (2005), "On some pitfalls in automatic evaluation
and significance testing for MT".  P. Koehn (2004), "Statistical significance
tests for machine translation evaluation".  T. Berg-Kirkpatrick, D. Burkett and
D. Klein (2012), "An empirical investigation of statistical significance in NLP".
R. Dror et al. (2018), "The hitchhiker's guide to testing statistical
significance in NLP".  Q. McNemar (1947).  S. Holm (1979), "A simple
sequentially rejective multiple test procedure".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

METRICS = ("precision", "recall", "f1")
#: Largest number of (draw x group) cells held at once.
CELLS = 1 << 22
#: A shuffled difference this close to the observed one counts as "as extreme" (float sums).
TOL = 1e-12


@dataclass(frozen=True)
class MetricTest:
    """Both systems' value of one metric, the difference ``a - b``, its paired bootstrap
    interval ``[low, high]`` and the approximate randomization p-value.  ``None`` with
    ``reason`` where undefined; ``p_holm`` is set by :func:`holm_family`."""

    metric: str
    a: float | None
    b: float | None
    difference: float | None
    low: float | None
    high: float | None
    p_value: float | None
    n_undefined_shuffles: int = 0
    reason: str | None = None
    p_holm: float | None = None


@dataclass(frozen=True)
class McNemar:
    """``a_only``: instances only A gets right; ``b_only``: only B; exact two-sided p."""

    a_only: int
    b_only: int
    p_value: float
    p_holm: float | None = None


@dataclass(frozen=True)
class PairTest:
    a: str
    b: str
    n: int
    metrics: dict[str, MetricTest]
    mcnemar: McNemar
    shuffles: int
    resamples: int
    confidence: float
    seed: int
    threshold: float
    holm: int = 0  # size of the family the Holm p-values were adjusted over (0: none)


def _clean(score, attempted) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(score, dtype=np.float64)
    a = (~np.isnan(s)).astype(np.float64) if attempted is None else np.asarray(attempted, np.float64)
    if s.ndim != 1 or a.shape != s.shape:
        raise ValueError(f"score {s.shape} and attempted {a.shape} must be equal 1-d shapes")
    return np.nan_to_num(s, nan=0.0), a


def group_rows(cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of ``cols`` (n, k) and how many instances hold each: ``(values (G, k), counts (G,))``.

    Each column is factorised on its own and the codes combined into one integer key
    (faster than ``np.unique(axis=0)``); rows are compared exactly."""
    n, k = cols.shape
    if n == 0:
        return np.zeros((0, k)), np.zeros(0, np.int64)
    key = np.zeros(n, dtype=np.int64)
    for j in range(k):
        u, inv = np.unique(cols[:, j], return_inverse=True)
        key = key * len(u) + inv.reshape(-1)
        if j < k - 1 and key.max(initial=0) >= (1 << 31):  # re-number: key * (distinct values) < 2^62
            key = np.unique(key, return_inverse=True)[1].reshape(-1)
    uniq, first, counts = np.unique(key, return_index=True, return_counts=True)
    return cols[first], counts.astype(np.int64)


def _metric(metric: str, S: np.ndarray, W: np.ndarray, n: int) -> np.ndarray:
    """The metric from sums (arrays); NaN where undefined (nothing attempted)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric == "recall":
            return S / n
        if metric == "precision":
            return np.where(W > 0, S / np.where(W > 0, W, 1.0), np.nan)
        return np.where(W > 0, 2.0 * S / (W + n), np.nan)


def _scalar(v: np.ndarray) -> float | None:
    x = float(v)
    return None if math.isnan(x) else x


def _blocks(total: int, per: int) -> list[int]:
    size = max(1, min(total, CELLS // max(per, 1)))
    return [min(size, total - k) for k in range(0, total, size)]


def _shuffle_sums(groups: np.ndarray, counts: np.ndarray, shuffles: int, rng) -> np.ndarray:
    """Per shuffle ``(delta_S, delta_W)``: what moves from A to B when every instance swaps with
    probability 1/2.  Shape (shuffles, 2).

    A group of at least ``BIG`` instances swaps ``K_g ~ Bin(m_g, 1/2)`` of them (one draw per
    group); the instances of smaller groups (soft scores make many distinct rows) swap one coin
    each, eight coins per random byte: a table holds the sum of every subset of each run of
    eight instances, and one shuffle is one gather per eight instances."""
    d = np.column_stack([groups[:, 0] - groups[:, 1], groups[:, 2] - groups[:, 3]])
    out = np.zeros((shuffles, 2))
    big = counts >= BIG
    if big.any():
        db, cb = d[big], counts[big]
        done = 0
        for b in _blocks(shuffles, len(cb)):
            out[done:done + b] += rng.binomial(cb, 0.5, size=(b, len(cb))) @ db
            done += b
    single = np.repeat(d[~big], counts[~big], axis=0)  # one row per instance
    if single.size:
        out += _byte_table_sums(single, shuffles, rng)
    return out


#: Groups of at least this many instances swap by one binomial draw; smaller ones per instance.
BIG = 16
#: Runs of eight instances per table piece (16,384 x 256 complex values = 64 MiB).
PIECE = 16_384


def _byte_table_sums(d: np.ndarray, shuffles: int, rng) -> np.ndarray:
    """``sum_i x_i d_i`` for iid fair coins ``x_i`` (one row per shuffle), ``d`` of shape (m, 2).

    The two columns travel as one complex number; random bytes are laid out one run of eight
    instances per row, so each row gathers from its own 256-entry slice of the table."""
    m = d.shape[0]
    runs = -(-m // 8)
    dc = np.zeros(runs * 8, dtype=np.complex128)
    dc[:m] = d[:, 0] + 1j * d[:, 1]
    bits = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.float64)  # (256, 8)
    out = np.zeros(shuffles, dtype=np.complex128)
    for start in range(0, runs, PIECE):
        stop = min(runs, start + PIECE)
        r = stop - start
        table = (dc[start * 8:stop * 8].reshape(-1, 8) @ bits.T).ravel()  # (run, byte) -> subset sum
        offs = (np.arange(r, dtype=np.int64) * 256)[:, None]
        size = _blocks(shuffles, r)[0]
        idx = np.empty((r, size), dtype=np.int64)
        val = np.empty((r, size), dtype=np.complex128)
        done = 0
        for b in _blocks(shuffles, r):
            byte = rng.integers(0, 256, size=(r, b), dtype=np.uint8)
            np.add(byte, offs, out=idx[:, :b])
            np.take(table, idx[:, :b], out=val[:, :b])
            out[done:done + b] += val[:, :b].sum(axis=0)
            done += b
    return np.column_stack([out.real, out.imag])


def _resample_sums(groups: np.ndarray, counts: np.ndarray, resamples: int, rng) -> np.ndarray:
    """Per bootstrap resample the sums ``(S_A, S_B, W_A, W_B)``: group counts ~ Multinomial(n, m_g / n),
    or, when there are many groups (soft scores), ``n`` instance indices drawn with replacement
    and counted with one ``bincount`` per block."""
    n = int(counts.sum())
    out = np.empty((resamples, 4))
    done = 0
    if len(counts) * 8 > n:  # as many draws either way: counting indices is cheaper than G binomials
        rows = np.repeat(groups, counts, axis=0)
        for b in _blocks(resamples, n):
            idx = rng.integers(0, n, size=(b, n))
            idx += (np.arange(b, dtype=np.int64) * n)[:, None]
            out[done:done + b] = np.bincount(idx.ravel(), minlength=b * n).reshape(b, n) @ rows
            done += b
        return out
    p = counts / n
    for b in _blocks(resamples, len(counts)):
        c = rng.multinomial(n, p, size=b)
        out[done:done + b] = c @ groups
        done += b
    return out


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Exact two-sided McNemar p-value: ``min(1, 2 P[Bin(b + c, 1/2) <= min(b, c)])`` (1 when b + c = 0).

    Summed in log space (log binomial coefficients as cumulative sums of logs, scaled by the
    largest term), so it holds for hundreds of thousands of discordant pairs.

    >>> round(mcnemar_exact(10, 2), 6)
    0.038574
    """
    m = a_only + b_only
    if m == 0:
        return 1.0
    j = np.arange(1, min(a_only, b_only) + 1, dtype=np.float64)
    # log C(m, k) = sum_{j <= k} log((m - j + 1) / j), for k = 0..min(b, c)
    logpmf = np.concatenate([[0.0], np.cumsum(np.log(m - j + 1) - np.log(j))]) - m * math.log(2.0)
    top = logpmf.max()
    return float(min(1.0, 2.0 * math.exp(top) * np.exp(logpmf - top).sum()))


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (``None`` stays ``None`` and is not counted).

    ``p_(i)`` sorted ascending over the ``m`` defined values:
    ``adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))``.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    idx = [i for i, p in enumerate(p_values) if p is not None]
    m = len(idx)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * float(p_values[i])))
        out[i] = running
    return out


def paired_test(score_a, score_b, attempted_a=None, attempted_b=None, *, names: tuple[str, str] = ("A", "B"),
                shuffles: int = 10_000, resamples: int = 1_000, seed: int = 0, confidence: float = 0.95,
                threshold: float = 1.0, correct_a=None, correct_b=None) -> PairTest:
    """Paired bootstrap, approximate randomization (P, R, F1) and McNemar for two systems.

    Parameters
    ----------
    score_a, score_b : ndarray of float, shape (n,)
        Per-instance scores over the same gold instances; NaN = not answered.
    attempted_a, attempted_b : ndarray of float, shape (n,), optional
        Attempted weights (default 1 where answered).
    shuffles, resamples : int
        Approximate randomization shuffles (default 10,000) and bootstrap resamples (1,000).
    correct_a, correct_b : ndarray of bool, optional
        Per-instance correctness for McNemar (default ``score >= threshold``).
    """
    if shuffles < 1 or resamples < 1:
        raise ValueError(f"shuffles = {shuffles}, resamples = {resamples}; expected at least 1 each")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence = {confidence}; expected a value between 0 and 1")
    sa, wa = _clean(score_a, attempted_a)
    sb, wb = _clean(score_b, attempted_b)
    if sa.shape != sb.shape:
        raise ValueError(f"systems scored on {sa.shape[0]} and {sb.shape[0]} instances; expected the same")
    n = sa.shape[0]
    ca = sa >= threshold - 1e-9 if correct_a is None else np.asarray(correct_a, bool)
    cb = sb >= threshold - 1e-9 if correct_b is None else np.asarray(correct_b, bool)
    if _second_first(sa, sb, wa, wb):  # the draws are made in one order of the two: B - A is A - B mirrored
        t = paired_test(sb, sa, wb, wa, names=(names[1], names[0]), shuffles=shuffles, resamples=resamples,
                        seed=seed, confidence=confidence, threshold=threshold, correct_a=cb, correct_b=ca)
        return _mirrored(t)
    a_only, b_only = int(np.count_nonzero(ca & ~cb)), int(np.count_nonzero(cb & ~ca))
    mc = McNemar(a_only, b_only, mcnemar_exact(a_only, b_only))
    if n == 0:
        none = {m: MetricTest(m, None, None, None, None, None, None, 0, "no gold instances") for m in METRICS}
        return PairTest(names[0], names[1], 0, none, mc, shuffles, resamples, confidence, seed, threshold)
    groups, counts = group_rows(np.column_stack([sa, sb, wa, wb]))
    rng = np.random.default_rng(seed)
    differ = (groups[:, 0] != groups[:, 1]) | (groups[:, 2] != groups[:, 3])
    delta = _shuffle_sums(groups[differ], counts[differ], shuffles, rng)
    boot = _resample_sums(groups, counts, resamples, rng)
    SA, SB, WA, WB = sa.sum(), sb.sum(), wa.sum(), wb.sum()
    out = {}
    for m in METRICS:
        va, vb = _metric(m, np.array(SA), np.array(WA), n), _metric(m, np.array(SB), np.array(WB), n)
        obs = va - vb
        if np.isnan(obs):
            out[m] = MetricTest(m, _scalar(va), _scalar(vb), None, None, None, None, 0,
                                "nothing attempted by a system: the metric is undefined")
            continue
        shuf = (_metric(m, SA - delta[:, 0], WA - delta[:, 1], n)
                - _metric(m, SB + delta[:, 0], WB + delta[:, 1], n))
        ok = shuf[~np.isnan(shuf)]
        p = (1 + int(np.count_nonzero(np.abs(ok) >= abs(float(obs)) - TOL))) / (1 + ok.size)
        diff = _metric(m, boot[:, 0], boot[:, 2], n) - _metric(m, boot[:, 1], boot[:, 3], n)
        diff = diff[~np.isnan(diff)]
        lo, hi = (np.percentile(diff, [50 * (1 - confidence), 50 * (1 + confidence)]).tolist()
                  if diff.size else (None, None))
        out[m] = MetricTest(m, _scalar(va), _scalar(vb), float(obs), lo, hi, p, int(shuf.size - ok.size))
    return PairTest(names[0], names[1], n, out, mc, shuffles, resamples, confidence, seed, threshold)


def _second_first(sa: np.ndarray, sb: np.ndarray, wa: np.ndarray, wb: np.ndarray) -> bool:
    """Whether B comes first in the order the random draws are made in: the order whose table of
    distinct rows ``(s_A, s_B, a_A, a_B)`` with their counts, sorted, is the smaller.  The shuffles
    and resamples take their draws group by group; in the other order the groups come in another
    order and take other draws from the same stream, so the figures moved with the order the systems
    were given in (#31: 0.0189 against 0.0196 on semeval2015).  The table does not depend on the order
    of the instances either (a rule on the first instance where the systems differ would)."""
    g, c = group_rows(np.column_stack([sa, sb, wa, wb]))
    ab = np.column_stack([g, c])
    ba = np.column_stack([g[:, [1, 0, 3, 2]], c])
    ab, ba = ab[np.lexsort(ab.T[::-1])].ravel(), ba[np.lexsort(ba.T[::-1])].ravel()
    differ = np.flatnonzero(ab != ba)
    return bool(differ.size) and bool(ba[differ[0]] < ab[differ[0]])


def _mirrored(t: PairTest) -> PairTest:
    """``t`` (A against B) as B against A: values swapped, the difference and its interval negated,
    the same p-values, McNemar's counts swapped."""
    from dataclasses import replace

    def flip(v: MetricTest) -> MetricTest:
        neg = lambda x: None if x is None else -x  # noqa: E731
        return replace(v, a=v.b, b=v.a, difference=neg(v.difference), low=neg(v.high), high=neg(v.low))

    return replace(t, a=t.b, b=t.a, metrics={m: flip(v) for m, v in t.metrics.items()},
                   mcnemar=replace(t.mcnemar, a_only=t.mcnemar.b_only, b_only=t.mcnemar.a_only))


def holm_family(tests: list[PairTest]) -> list[PairTest]:
    """Holm-adjust each metric's randomization p-values and the McNemar p-values over the pairs
    (a family per metric and one for McNemar); with one pair nothing is adjusted."""
    if len(tests) < 2:
        return tests
    from dataclasses import replace

    adj = {m: holm([t.metrics[m].p_value for t in tests]) for m in METRICS}
    mc = holm([t.mcnemar.p_value for t in tests])
    return [replace(t, holm=len(tests), mcnemar=replace(t.mcnemar, p_holm=mc[k]),
                    metrics={m: replace(v, p_holm=adj[m][k]) for m, v in t.metrics.items()})
            for k, t in enumerate(tests)]


def pairs_of(n_systems: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(n_systems) for b in range(a + 1, n_systems)]


__all__ = ["METRICS", "McNemar", "MetricTest", "PairTest", "group_rows", "holm", "holm_family",
           "mcnemar_exact", "paired_test", "pairs_of"]
