"""Comparing WSD systems with each other (Pedersen 2002).

With the gold standard fixed, an instance is *correct* for a system when its
score reaches a threshold (default 1: fully correct).  From the boolean
(systems x instances) matrix of correct answers this module computes

* pairwise system agreement: Cohen's kappa over the 2x2 correct/incorrect
  table, with the both-correct / one-correct / both-wrong shares;
* the optimal combination of a set of systems: the share of instances at
  least one of them gets right (an upper bound for any combiner), and the
  best subset of every size;
* instance difficulty: how many systems get each instance right, the
  instances nobody gets right, and the mean number of systems right per
  lexelt.

References
----------
T. Pedersen (2002), "Assessing system agreement and instance difficulty in
the lexical sample tasks of SENSEVAL-2", Proceedings of the SIGLEX/SENSEVAL
Workshop on WSD, pp. 40-46.  J. Cohen (1960), "A coefficient of agreement
for nominal scales".  ``metrics.md`` section 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.stats.undefined import CHANCE_ONE, NO_SHARED, REASONS, ZERO_TOL, masked

#: Scores this close below the threshold still count as correct (float sums such as 0.6 + 0.4).
SCORE_TOL = 1e-9
#: Largest number of systems for which every subset is examined.
MAX_EXHAUSTIVE = 20


def correct_matrix(scores: np.ndarray, *, threshold: float = 1.0) -> np.ndarray:
    """``correct[s, i] = scores[s, i] >= threshold`` (NaN = not answered = incorrect).

    A tolerance of ``SCORE_TOL`` absorbs float rounding of weighted sums.
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2:
        raise ValueError(f"scores has shape {s.shape}; expected (systems, instances)")
    with np.errstate(invalid="ignore"):
        return np.nan_to_num(s, nan=-np.inf) >= threshold - SCORE_TOL


@dataclass(frozen=True)
class PairwiseSystems:
    """Pairwise agreement of systems on correct/incorrect (all arrays (S, S)).

    ``kappa`` is masked where undefined (``Pr(E) = 1``: both systems right
    on every instance, or both wrong on every instance, or no instance);
    ``reason_code`` says why (see :data:`hieradjudicate.core.stats.undefined.REASONS`).
    """

    names: list[str]
    both: np.ndarray
    one: np.ndarray
    neither: np.ndarray
    observed: np.ndarray
    expected: np.ndarray
    kappa: np.ma.MaskedArray
    reason_code: np.ndarray
    optimal: np.ndarray  # share at least one of the pair gets right = 1 - neither
    n: int

    def reason(self, a: int, b: int) -> str | None:
        return REASONS.get(int(self.reason_code[a, b]))


def pairwise_agreement(correct: np.ndarray, *, names: Sequence[str] | None = None) -> PairwiseSystems:
    """Cohen's kappa between every pair of systems over correct/incorrect.

    With ``p_a`` the share system ``a`` gets right and ``both`` the share both
    get right: ``neither = 1 - p_a - p_b + both``, ``Pr(A) = both + neither``,
    ``Pr(E) = p_a p_b + (1 - p_a)(1 - p_b)``,
    ``kappa = (Pr(A) - Pr(E)) / (1 - Pr(E))`` (Cohen 1960; Pedersen 2002).

    Parameters
    ----------
    correct : ndarray of bool, shape (S, n)
    names : sequence of str, optional

    Examples
    --------
    >>> c = np.array([[1, 1, 0, 0], [1, 0, 1, 0]], bool)
    >>> pw = pairwise_agreement(c)
    >>> float(pw.kappa[0, 1]), float(pw.both[0, 1]), float(pw.one[0, 1])
    (0.0, 0.25, 0.5)
    """
    c = np.asarray(correct, dtype=np.float64)
    S, n = c.shape
    names = [str(i) for i in range(S)] if names is None else list(names)
    codes = np.zeros((S, S), dtype=np.int64)
    if n == 0:
        nan = np.full((S, S), np.nan)
        codes[:] = NO_SHARED
        return PairwiseSystems(names, nan, nan, nan, nan, nan, masked(nan, codes), codes, nan, 0)
    both = (c @ c.T) / n
    p = c.mean(axis=1)
    one = p[:, None] + p[None, :] - 2.0 * both
    neither = 1.0 - p[:, None] - p[None, :] + both
    observed = both + neither
    expected = p[:, None] * p[None, :] + (1.0 - p[:, None]) * (1.0 - p[None, :])
    undefined = 1.0 - expected <= ZERO_TOL
    codes[undefined] = CHANCE_ONE
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = np.where(undefined, 0.0, (observed - expected) / np.where(undefined, 1.0, 1.0 - expected))
    return PairwiseSystems(names, both, one, neither, observed, expected, masked(kappa, codes),
                           codes, 1.0 - neither, n)


def optimal_combination(correct: np.ndarray, systems: Sequence[int] | None = None) -> float | None:
    """Share of instances that at least one of ``systems`` (default all) gets right.

    ``optimal = 1 - (instances no system in the set gets right) / n``
    (Pedersen 2002, section 3).  ``None`` when there are no instances.
    """
    c = np.asarray(correct, dtype=bool)
    if c.shape[1] == 0:
        return None
    sel = c if systems is None else c[list(systems)]
    return float(sel.any(axis=0).mean())


@dataclass(frozen=True)
class BestSubset:
    size: int
    systems: tuple[int, ...]
    names: tuple[str, ...]
    optimal: float


def best_subsets(correct: np.ndarray, *, names: Sequence[str] | None = None,
                 max_size: int | None = None) -> list[BestSubset]:
    """The subset of each size with the highest optimal combination.

    Every subset is examined (at most ``MAX_EXHAUSTIVE`` systems).  The
    number of instances no member gets right is computed for all ``2^S``
    subsets at once: with ``g(q)`` the number of instances whose pattern of
    correct systems lies inside ``q`` (a subset-sum transform, ``S`` numpy
    passes), the subset ``m`` leaves ``g(complement(m))`` instances unsolved.
    Ties go to the subset with the smallest bit mask (lowest system indices).
    """
    c = np.asarray(correct, dtype=bool)
    S, n = c.shape
    if S > MAX_EXHAUSTIVE:
        raise ValueError(f"{S} systems; best subsets are searched exhaustively for at most "
                         f"{MAX_EXHAUSTIVE} (choose fewer systems)")
    if n == 0 or S == 0:
        return []
    names = [str(i) for i in range(S)] if names is None else list(names)
    weights = np.left_shift(np.int64(1), np.arange(S, dtype=np.int64))
    pattern = (c.astype(np.int64) * weights[:, None]).sum(axis=0)
    full = (1 << S) - 1
    g = np.bincount(pattern, minlength=1 << S).astype(np.int64)
    idx = np.arange(1 << S)
    for s in range(S):
        has = (idx >> s) & 1 == 1
        g[has] += g[idx[has] ^ (1 << s)]
    unsolved = g[full ^ idx]
    popcount = np.zeros(1 << S, dtype=np.int64)
    for s in range(S):
        popcount += (idx >> s) & 1
    out = []
    for k in range(1, (max_size or S) + 1):
        cand = np.flatnonzero(popcount == k)
        best = int(cand[np.argmin(unsolved[cand])])
        members = tuple(s for s in range(S) if best >> s & 1)
        out.append(BestSubset(k, members, tuple(names[s] for s in members),
                              1.0 - float(unsolved[best]) / n))
    return out


@dataclass(frozen=True)
class Difficulty:
    """How many systems get each instance right (Pedersen 2002, section 4).

    ``histogram[k]`` = number of instances exactly ``k`` systems get right
    (``k = 0..S``); ``unsolved`` = indices of instances no system gets right;
    ``by_lexelt`` = mean number of systems right per instance of the lexelt.
    """

    n_right: np.ndarray
    histogram: np.ndarray
    unsolved: np.ndarray
    by_lexelt: dict[str, float]
    lexelt_instances: dict[str, int]


def instance_difficulty(correct: np.ndarray, *, inst_lexelt: np.ndarray | None = None,
                        lexelts: Sequence[str] | None = None) -> Difficulty:
    """Difficulty histogram, the unsolved instances and per-lexelt mean systems right."""
    c = np.asarray(correct, dtype=bool)
    S = c.shape[0]
    n_right = c.sum(axis=0)
    hist = np.bincount(n_right, minlength=S + 1)
    by_lex: dict[str, float] = {}
    counts: dict[str, int] = {}
    if inst_lexelt is not None:
        lex = np.asarray(inst_lexelt, dtype=np.int64)
        m = int(lex.max(initial=-1)) + 1 if lexelts is None else len(lexelts)
        names = [str(j) for j in range(m)] if lexelts is None else list(lexelts)
        cnt = np.bincount(lex, minlength=m)
        tot = np.bincount(lex, weights=n_right, minlength=m)
        for j in np.flatnonzero(cnt):
            by_lex[names[j]] = float(tot[j] / cnt[j])
            counts[names[j]] = int(cnt[j])
    return Difficulty(n_right, hist, np.flatnonzero(n_right == 0), by_lex, counts)


@dataclass(frozen=True)
class SystemComparison:
    names: list[str]
    threshold: float
    correct: np.ndarray
    accuracy: np.ndarray | None  # share of instances each system gets right; None: no instance
    pairwise: PairwiseSystems
    optimal_all: float | None
    best_subsets: list[BestSubset]
    difficulty: Difficulty


def compare_systems(
    scores: np.ndarray,
    *,
    names: Sequence[str] | None = None,
    threshold: float = 1.0,
    inst_lexelt: np.ndarray | None = None,
    lexelts: Sequence[str] | None = None,
    max_subset_size: int | None = None,
) -> SystemComparison:
    """Everything of Pedersen (2002) from per-system per-instance scores.

    Parameters
    ----------
    scores : ndarray of float, shape (S, n)
        Score of every system on every gold instance; NaN = not answered.
    threshold : float
        Minimum score of a correct answer (default 1: fully correct).
    max_subset_size : int, optional
        Largest subset size searched by :func:`best_subsets` (skipped, empty
        list, when there are more than ``MAX_EXHAUSTIVE`` systems).
    """
    c = correct_matrix(scores, threshold=threshold)
    S, n = c.shape
    names = [str(i) for i in range(S)] if names is None else list(names)
    subsets = best_subsets(c, names=names, max_size=max_subset_size) if S <= MAX_EXHAUSTIVE else []
    acc = c.mean(axis=1) if n else None
    return SystemComparison(names, threshold, c, acc, pairwise_agreement(c, names=names),
                            optimal_combination(c), subsets,
                            instance_difficulty(c, inst_lexelt=inst_lexelt, lexelts=lexelts))


__all__ = [
    "BestSubset",
    "Difficulty",
    "PairwiseSystems",
    "SystemComparison",
    "best_subsets",
    "compare_systems",
    "correct_matrix",
    "instance_difficulty",
    "optimal_combination",
    "pairwise_agreement",
]
