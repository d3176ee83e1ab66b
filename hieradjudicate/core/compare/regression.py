"""Systems against each other, per group of instances: paired tests and the regression view.

A *grouping* gives every gold instance an integer code (its lexelt, its part of
speech, its data set in the WSD framework's ``ALL`` files) and names the codes.
:func:`tests_by_group` runs :func:`hieradjudicate.core.compare.significance.paired_test`
on every pair of systems within the whole evaluation and within every group,
with Holm's correction over the pairs of each group (said as such in the result).
:func:`regression` gives the instances a system gained and lost against a
baseline (correct = ``score >= threshold``), counted per group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.compare.significance import PairTest, holm_family, paired_test

ALL = "all instances"


@dataclass(frozen=True)
class Grouping:
    """``codes[i]`` = group of instance ``i`` (``-1``: none); ``names[code]``."""

    title: str
    codes: np.ndarray
    names: list[str]


def grouping(title: str, labels: Sequence[str] | np.ndarray) -> Grouping:
    """A grouping from one label per instance (factorised with ``np.unique``)."""
    names, codes = np.unique(np.asarray(labels, dtype=str), return_inverse=True)
    return Grouping(title, codes.reshape(-1).astype(np.int64), names.tolist())


def tests_by_group(scores: np.ndarray, attempted: np.ndarray, names: Sequence[str],
                   pairs: Sequence[tuple[int, int]], groupings: Sequence[Grouping] = (), *,
                   shuffles: int = 10_000, resamples: int = 1_000, seed: int = 0,
                   confidence: float = 0.95, threshold: float = 1.0,
                   correct: np.ndarray | None = None) -> dict[str, dict[str, list[PairTest]]]:
    """``{grouping title: {group name: [PairTest per pair]}}``; the whole evaluation is
    ``{ALL: {ALL: [...]}}``.  Holm-adjusted over the pairs of each group when there are
    several pairs.  Every test of a group uses the same seed (results do not depend on
    which other groups are asked for)."""
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(attempted, dtype=np.float64)
    c = None if correct is None else np.asarray(correct, dtype=bool)

    def run(sel) -> list[PairTest]:
        out = []
        for a, b in pairs:
            out.append(paired_test(s[a, sel], s[b, sel], w[a, sel], w[b, sel], names=(names[a], names[b]),
                                   shuffles=shuffles, resamples=resamples, seed=seed, confidence=confidence,
                                   threshold=threshold, correct_a=None if c is None else c[a, sel],
                                   correct_b=None if c is None else c[b, sel]))
        return holm_family(out)

    result = {ALL: {ALL: run(slice(None))}}
    for g in groupings:
        order = np.argsort(g.codes, kind="stable")
        bounds = np.searchsorted(g.codes[order], np.arange(len(g.names) + 1))
        result[g.title] = {g.names[k]: run(order[bounds[k]:bounds[k + 1]])
                           for k in range(len(g.names)) if bounds[k + 1] > bounds[k]}
    return result


@dataclass(frozen=True)
class Regression:
    """Instances ``system`` gets right and ``baseline`` does not (``gained``) and the reverse
    (``lost``): indices into the gold instances; ``by`` = per grouping, per group,
    ``(gained, lost)`` counts."""

    baseline: str
    system: str
    gained: np.ndarray
    lost: np.ndarray
    by: dict[str, dict[str, tuple[int, int]]]


def regression(correct_base: np.ndarray, correct_sys: np.ndarray, groupings: Sequence[Grouping] = (), *,
               baseline: str = "baseline", system: str = "system") -> Regression:
    cb = np.asarray(correct_base, dtype=bool)
    cs = np.asarray(correct_sys, dtype=bool)
    if cb.shape != cs.shape:
        raise ValueError(f"baseline on {cb.shape} and system on {cs.shape} instances; expected the same")
    gained, lost = cs & ~cb, cb & ~cs
    by: dict[str, dict[str, tuple[int, int]]] = {}
    for g in groupings:
        m = len(g.names)
        ok = g.codes >= 0
        ng = np.bincount(g.codes[ok & gained], minlength=m)
        nl = np.bincount(g.codes[ok & lost], minlength=m)
        by[g.title] = {g.names[k]: (int(ng[k]), int(nl[k])) for k in np.flatnonzero(ng + nl)}
    return Regression(baseline, system, np.flatnonzero(gained), np.flatnonzero(lost), by)


__all__ = ["ALL", "Grouping", "Regression", "grouping", "regression", "tests_by_group"]
