"""The strata of a score's bootstrap: each lexelt its own, the lexelts too small to resample alone together.

The stratified bootstrap (metrics.md, "Confidence intervals") draws each lexelt's instances from
that lexelt only.  A lexelt of ``n`` instances then shows ``(n - 1) / n`` of its variance: none for
a lexelt of one instance, half for one of two.  All-words data are mostly such lexelts (the WSD
evaluation framework's semeval2015: 512 lemmas for 1,022 instances), and there a system's
precision interval came out about a third as wide as a resampling of its instances gives
(resnik: [0.485, 0.506] against [0.459, 0.531]): a difference between systems looked sure when
it was not.  So the lexelts with fewer than :data:`MIN_STRATUM` instances are drawn together, as
one stratum; lexical-sample data keep one stratum per lexelt (Senseval-3's smallest lexelt has
14 test instances, the demo's 46, MASC's hundreds) and their intervals are unchanged.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.stats.bca import dense_codes

#: a lexelt with fewer instances than this is resampled with the other small ones (its own
#: resampling would keep at most 90 % of its variance)
MIN_STRATUM = 10


def score_strata(lexelt: np.ndarray) -> tuple[np.ndarray, int]:
    """``(codes, pooled)``: a stratum code ``0..S-1`` per instance, and how many lexelts were put
    in the stratum of small lexelts (0 when at most one lexelt is small: nothing is pooled then).

    >>> score_strata(np.array(["a", "b", "b", "c"] + ["d"] * 10))
    (array([0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), 3)
    """
    inv, counts = dense_codes(lexelt)
    small = counts < MIN_STRATUM
    if int(small.sum()) < 2:
        return inv, 0
    first = int(np.flatnonzero(small)[0])
    label = np.where(small, first, np.arange(counts.size))
    return dense_codes(label[inv])[0], int(small.sum())


def strata_text(pooled: int) -> str:
    """How the resampling was stratified, for a figure's label."""
    if not pooled:
        return "stratified by lexelt"
    return (f"stratified by lexelt; the {pooled} lexelts of fewer than {MIN_STRATUM} instances "
            "drawn together as one stratum")


def lexelt_strata(sizes: np.ndarray, min_stratum: int = MIN_STRATUM) -> tuple[np.ndarray, int]:
    """``(stratum_of, pooled)``: the stratum code of every lexelt (``0..S-1``, in the order of each
    stratum's first lexelt; an empty lexelt keeps its own, which draws nothing) from the lexelts'
    sizes, and how many lexelts were pooled.  The lexelts of 1 to ``min_stratum - 1`` units form one
    stratum when there are at least two of them (:func:`score_strata`'s rule); otherwise every lexelt
    is its own stratum and ``stratum_of`` is ``0..X-1``.

    >>> lexelt_strata(np.array([12, 3, 0, 40, 1]))
    (array([0, 1, 2, 3, 1]), 2)
    """
    sizes = np.asarray(sizes)
    small = (sizes > 0) & (sizes < min_stratum)
    if int(small.sum()) < 2:
        return np.arange(sizes.size), 0
    label = np.where(small, int(np.flatnonzero(small)[0]), np.arange(sizes.size))
    return dense_codes(label)[0], int(small.sum())

