"""Bootstrap confidence intervals for kappa and alpha (metrics.md, "Confidence intervals").

Instances are resampled with replacement *within each lexelt* (stratified:
every resample keeps each lexelt's number of instances), with a fixed
default seed, 1000 resamples and a percentile 95 % interval.

Vectorised: every figure is a function of per-instance sufficient
statistics ``V`` (one row per instance).  A resample is a vector of counts
``c`` (how often each instance was drawn), and the resampled sums are
``c @ V``; the counts of a block of resamples form a ``(B, n_x)`` matrix per
lexelt, so a thousand resamples cost one matrix product per lexelt.  No
Python loop runs over resamples or instances.

Resamples in which a figure is undefined (e.g. ``Pr(E) = 1``) are left out
of its percentiles and counted in ``n_undefined``.

References
----------
Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13
(percentile interval).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.core.agreement import (
    _multi_stats,
    make_layout,
    multi_rater_agreement,
    pairwise_agreement,
)
from hieradjudicate.core.alpha import Distance, alpha_from_sums, alpha_stats, krippendorff_alpha
from hieradjudicate.core.undefined import ZERO_TOL, Estimate

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "BootstrapCI",
    "bootstrap_alpha",
    "bootstrap_fleiss",
    "bootstrap_pairwise",
    "resample_indices",
]

DEFAULT_SEED = 20_240_601
DEFAULT_RESAMPLES = 1000
_BLOCK = 4_000_000  # counts per block of resamples (memory bound: 32 MB of float64)


@dataclass(frozen=True)
class BootstrapCI:
    """A point estimate with its percentile bootstrap interval.

    ``low``/``high`` are ``None`` (with ``reason``) when no resample gave a
    defined figure; ``replicates`` holds the figure of every resample
    (masked where undefined).
    """

    estimate: Estimate
    low: float | None
    high: float | None
    level: float
    n_resamples: int
    n_undefined: int
    seed: int
    replicates: np.ma.MaskedArray = field(repr=False)
    reason: str | None = None


def resample_indices(
    lexelt_sizes: np.ndarray, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> Iterator[tuple[int, int, int, np.ndarray]]:
    """The draws: ``(x, b0, b1, idx)`` with ``idx`` of shape ``(b1 - b0, n_x)``.

    ``idx[j]`` lists the local instances of lexelt ``x`` drawn in resample
    ``b0 + j``.  The order of the draws is fixed by the seed, so that a naive
    implementation can replay them.
    """
    rng = np.random.default_rng(seed)
    for x, n_x in enumerate(np.asarray(lexelt_sizes, dtype=np.int64).tolist()):
        if n_x == 0:
            continue
        step = max(1, _BLOCK // n_x)
        for b0 in range(0, n_resamples, step):
            b1 = min(n_resamples, b0 + step)
            yield x, b0, b1, rng.integers(0, n_x, size=(b1 - b0, n_x))


def resampled_sums(V: np.ndarray, lex: np.ndarray, n_lexelts: int, n_resamples: int, seed: int) -> np.ndarray:
    """``T[b, x, :]`` = sum of the rows of ``V`` of lexelt ``x`` drawn in resample ``b``."""
    V = np.asarray(V, dtype=np.float64)
    order = np.argsort(lex, kind="stable")
    bounds = np.searchsorted(lex[order], np.arange(n_lexelts + 1))
    T = np.zeros((n_resamples, n_lexelts, V.shape[1]))
    for x, b0, b1, idx in resample_indices(np.diff(bounds), n_resamples, seed):
        b, n_x = idx.shape
        flat = (idx + (np.arange(b) * n_x)[:, None]).ravel()
        counts = np.bincount(flat, minlength=b * n_x).reshape(b, n_x).astype(np.float64)
        T[b0:b1, x] = counts @ V[order[bounds[x]:bounds[x + 1]]]
    return T


def _ci(est: Estimate, values: np.ndarray, ok: np.ndarray, level: float, seed: int) -> BootstrapCI:
    reps = np.ma.MaskedArray(np.where(ok, values, 0.0), mask=~ok)
    if not ok.any():
        return BootstrapCI(est, None, None, level, len(values), len(values), seed, reps,
                           "the figure is undefined in every resample")
    q = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(values[ok], [q, 100.0 - q])
    return BootstrapCI(est, float(low), float(high), level, len(values), int((~ok).sum()), seed, reps)


def _kappas(obs: np.ndarray, pe: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = (n > 0) & (1.0 - pe > ZERO_TOL)
    return np.where(ok, (obs - pe) / np.where(ok, 1.0 - pe, 1.0), 0.0), ok


def bootstrap_pairwise(
    pa: np.ndarray, pb: np.ndarray, lex: np.ndarray | None = None, *, n_lexelts: int | None = None,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
) -> tuple[BootstrapCI, BootstrapCI]:
    """Percentile intervals of the pair's Scott/Siegel-Castellan and Cohen kappa.

    Statistics per shared instance: ``[1, pa.pb, pa, pb]``; per resample and
    lexelt the sums give ``n_x``, ``sum Pr_i(A)`` and both marginals, hence
    ``Pr_x(E)`` and the instance-weighted corpus kappa exactly as
    :func:`~hieradjudicate.core.agreement.pairwise_agreement` computes it.

    Returns
    -------
    (scott, cohen) : tuple of BootstrapCI
    """
    pa = np.asarray(pa, dtype=np.float64)
    pb = np.asarray(pb, dtype=np.float64)
    lex = np.zeros(len(pa), np.int64) if lex is None else np.asarray(lex, np.int64)
    X = int(n_lexelts if n_lexelts is not None else (lex.max() + 1 if len(lex) else 1))
    point = pairwise_agreement(pa, pb, lex, n_lexelts=X)
    K = pa.shape[1]
    V = np.column_stack([np.ones(len(pa)), np.einsum("ik,ik->i", pa, pb), pa, pb])
    T = resampled_sums(V, lex, X, n_resamples, seed)
    n_x, ma, mb = T[..., 0], T[..., 2:2 + K], T[..., 2 + K:]
    den = np.maximum(n_x, 1.0) ** 2
    pe_c = np.einsum("bxk,bxk->bx", ma, mb) / den
    pe_s = np.einsum("bxk,bxk->bx", ma + mb, ma + mb) / (4.0 * den)
    n = n_x.sum(axis=1)
    obs = T[..., 1].sum(axis=1) / np.maximum(n, 1.0)
    out = []
    for pe_x, agr in ((pe_s, point.scott), (pe_c, point.cohen)):
        k, ok = _kappas(obs, (n_x * pe_x).sum(axis=1) / np.maximum(n, 1.0), n)
        out.append(_ci(agr.kappa, k, ok, level, seed))
    return out[0], out[1]


def bootstrap_fleiss(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    n_lexelts: int | None = None, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    level: float = 0.95,
) -> BootstrapCI:
    """Percentile interval of Fleiss' (soft) kappa.

    Resampling units are the pairable instances (``m_i >= 2``), stratified
    by lexelt; statistics per instance ``[1, P_i, s_i, m_i]``, from which
    each resample's ``Pr(A)``, ``pbar_x`` and ``Pr(E)`` follow exactly.
    """
    lay = make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts).pairable()
    point = multi_rater_agreement(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts)
    est = point.fleiss.kappa
    X, K = lay.n_lexelts, lay.P.shape[1]
    if lay.R == 0:
        return _ci(est, np.zeros(n_resamples), np.zeros(n_resamples, bool), level, seed)
    p_i, _, s, m_i = _multi_stats(lay)
    V = np.column_stack([np.ones(len(p_i)), p_i, s, m_i])
    T = resampled_sums(V, lay.seg_lex, X, n_resamples, seed)
    n_x = T[..., 0]
    n = n_x.sum(axis=1)
    obs = T[..., 1].sum(axis=1) / np.maximum(n, 1.0)
    pbar = T[..., 2:2 + K] / np.maximum(T[..., 2 + K], 1.0)[..., None]
    pe = (n_x * np.einsum("bxk,bxk->bx", pbar, pbar)).sum(axis=1) / np.maximum(n, 1.0)
    k, ok = _kappas(obs, pe, n)
    return _ci(est, k, ok, level, seed)


def bootstrap_alpha(
    inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, *,
    distance: Distance = "nominal", lexelt_chance: str = "within", n_lexelts: int | None = None,
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = 0.95,
) -> BootstrapCI:
    """Percentile interval of Krippendorff's alpha (nominal or a fixed distance matrix).

    Resampling units are the pairable instances, stratified by lexelt;
    statistics per instance ``[do_i, s_i]`` (see :class:`~hieradjudicate.core.alpha.AlphaStats`).
    The ordinal metric depends on the marginals of each resample and is not
    offered here.
    """
    if isinstance(distance, str) and distance != "nominal":
        raise ValueError("bootstrap_alpha supports 'nominal' or a distance matrix")
    point = krippendorff_alpha(inst, rater, P, inst_lexelt, distance=distance,
                               lexelt_chance=lexelt_chance, n_lexelts=n_lexelts)
    lay = make_layout(inst, rater, P, inst_lexelt, n_lexelts=n_lexelts).pairable()
    if lay.R == 0:
        return _ci(point.alpha, np.zeros(n_resamples), np.zeros(n_resamples, bool), level, seed)
    st = alpha_stats(lay, distance)
    T = resampled_sums(np.column_stack([st.do_i, st.s_i]), st.seg_lex, lay.n_lexelts, n_resamples, seed)
    d_o, d_e, _, _ = alpha_from_sums(T[..., 0], T[..., 1:], st.dist, lexelt_chance=lexelt_chance)
    n = T[..., 1:].sum(axis=(1, 2))
    ok = (n > 0) & (d_e > ZERO_TOL)
    return _ci(point.alpha, np.where(ok, 1.0 - d_o / np.where(ok, d_e, 1.0), 0.0), ok, level, seed)
