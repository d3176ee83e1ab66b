"""Orders of the rows of a symmetric agreement matrix that make its structure visible.

A pairwise heat map of hundreds of annotators in load order is noise; in an
order where similar annotators sit together, blocks and outliers show.  Two
orders, both deterministic:

* :func:`mean_order` — by each set's mean agreement with the sets it shares
  instances with (highest first); sets with no defined cell go last.
* :func:`cluster_order` — the leaf order of average-linkage agglomerative
  clustering on ``1 - agreement`` (UPGMA).  Undefined cells (pairs that
  share no instance) count as the largest distance, so such sets join last.

Pure numpy; O(m^2) memory and O(m^3) time in the worst case, about 0.1 s
for 228 sets.
"""

from __future__ import annotations

import numpy as np


def _defined(values: np.ndarray) -> np.ndarray:
    v = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan).astype(float)
    np.fill_diagonal(v, np.nan)
    return v


def mean_agreement(values: np.ndarray) -> np.ndarray:
    """Each row's mean over its defined off-diagonal cells (NaN where it has none)."""
    v = _defined(values)
    ok = ~np.isnan(v)
    n = ok.sum(axis=1)
    s = np.where(ok, v, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, s / np.maximum(n, 1), np.nan)


def mean_order(values: np.ndarray) -> np.ndarray:
    """Row indices by mean agreement, highest first; rows without a defined cell last (stable)."""
    mean = mean_agreement(values)
    key = np.where(np.isnan(mean), np.inf, -mean)
    return np.argsort(key, kind="stable")


def cluster_order(values: np.ndarray) -> np.ndarray:
    """Leaf order of average-linkage clustering on ``1 - values`` (undefined = distance 2)."""
    v = _defined(values)
    m = v.shape[0]
    if m <= 2:
        return np.arange(m)
    d = np.where(np.isnan(v), 2.0, 1.0 - v)
    np.fill_diagonal(d, np.inf)
    size = np.ones(m)
    members: list[list[int]] = [[i] for i in range(m)]
    alive = np.ones(m, dtype=bool)
    for _ in range(m - 1):
        flat = int(np.argmin(d))
        a, b = divmod(flat, m)
        if a > b:
            a, b = b, a
        # the merged cluster's distance to every other: size-weighted mean (UPGMA)
        merged = (d[a] * size[a] + d[b] * size[b]) / (size[a] + size[b])
        d[a, :] = merged
        d[:, a] = merged
        d[a, a] = np.inf
        d[b, :] = np.inf
        d[:, b] = np.inf
        size[a] += size[b]
        members[a] = members[a] + members[b]
        members[b] = []
        alive[b] = False
    root = int(np.flatnonzero(alive)[0])
    return np.asarray(members[root], dtype=np.int64)
