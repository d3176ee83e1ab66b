"""Figures per data set of the WSD evaluation framework's ``ALL`` files (ids ``senseval2.d000.s000.t000``).

One ALL run gives every data set's figures, as the framework's own per-data-set runs would (same
instances, same rule).  Shared by ``hieradjudicate score`` and the window's reference-gold scores, so
both print the same figures.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

FRAMEWORK_ID = re.compile(r"^[^.]+\.d\d+\.s\d+\.t\d+$")


def by_dataset(ids_at: Callable[[np.ndarray], object], rows: np.ndarray, score: np.ndarray,
               attempted: np.ndarray) -> dict[str, dict]:
    """P, R and F1 per data set when the ids carry the framework's ``ALL`` prefix, else ``{}``.

    ``ids_at(rows)`` gives the instance ids of gold items ``rows``; only the first and last are
    decoded unless they carry the prefix."""
    if len(rows) == 0 or not all(FRAMEWORK_ID.match(str(i)) for i in ids_at(rows[[0, -1]])):  # type: ignore[union-attr]
        return {}
    prefix = np.char.partition(np.asarray(ids_at(rows), dtype=str), ".")[:, 0]
    names, of = np.unique(prefix, return_inverse=True)
    if len(names) < 2:
        return {}
    got = np.nan_to_num(score, nan=0.0)
    s_sum = np.bincount(of, weights=got, minlength=len(names))
    a_sum = np.bincount(of, weights=attempted, minlength=len(names))
    n = np.bincount(of, minlength=len(names))
    out = {}
    for k, name in enumerate(names.tolist()):
        p = s_sum[k] / a_sum[k] if a_sum[k] > 0 else None
        r = s_sum[k] / n[k]
        f = 2 * p * r / (p + r) if p is not None and p + r > 0 else None
        out[name] = {"precision": p, "recall": r, "f1": f, "attempted": float(a_sum[k]), "total": int(n[k])}
    return out
