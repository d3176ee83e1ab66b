"""The coarse policy's range of a difference over the joint outcomes of the open instances
(#25 gap 3): answers mapped to their top-level senses, against enumerating every gold tag set
of every open instance and scoring it by scorer2's coarse rule."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hieradjudicate.core.scoring.open_range import METRICS, difference_range, normalise

#: a sense tree: tags 0-2 under top 0, 3-4 under top 3, 5 alone (answered by nobody)
TOP = np.array([0, 0, 0, 3, 3, 5])
TAGS = len(TOP)


def metric(m: str, S: float, W: float, n: int) -> float:
    p, r = S / W, S / n
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}[m]


def coarse_score(spec: dict[int, float], share: float, gold: tuple[int, ...]) -> float:
    """scorer2's coarse rule by definition: an answer tag gets credit when its top-level sense is
    the top-level sense of a gold tag; weights normalised to sum to the row's attempted share."""
    total = sum(1.0 if np.isnan(w) else w for w in spec.values())
    tops = {int(TOP[g]) for g in gold}
    return min(1.0, sum(share * (1.0 if np.isnan(w) else w) / total for t, w in spec.items() if TOP[t] in tops))


@pytest.mark.parametrize("seed", range(8))
def test_coarse_range_equals_enumerating_every_outcome(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    n_open, n_dec = 2, 4
    specs: list[dict[int, dict[int, float]]] = [{}, {}]
    for i in range(n_open):
        for spec in specs:
            if i == 0 or rng.random() < 0.85:
                k = int(rng.integers(1, 4))
                tags = rng.choice(5, size=k, replace=False)  # tag 5 stays unanswered
                spec[i] = {int(t): float(w) for t, w in zip(tags, rng.choice([np.nan, 1.0, 2.0], size=k))}
    share = [{i: float(rng.choice([1.0, 0.5])) for i in range(n_open)}, {i: 1.0 for i in range(n_open)}]
    opened = []
    for spec, sh in zip(specs, share):
        rows = [(i, t, w) for i, d in spec.items() for t, w in d.items()]
        i, t, w = (np.array(c, dtype=float) for c in zip(*rows, strict=True))
        i, t = i.astype(np.int64), t.astype(np.int64)
        opened.append(normalise(i, TOP[t], w, np.array([sh[x] for x in i.tolist()])))  # tags -> tops
    Sa, Wa, Sb, Wb = 1.5, 3.0, 2.0, 4.0
    golds = [g for r in range(1, TAGS + 1) for g in itertools.combinations(range(TAGS), r)]
    n_all = n_dec + n_open
    seen = {m: [] for m in METRICS}
    for outcome in itertools.product(golds, repeat=n_open):
        sa = Sa + sum(coarse_score(specs[0][i], share[0][i], g) for i, g in enumerate(outcome) if i in specs[0])
        sb = Sb + sum(coarse_score(specs[1][i], share[1][i], g) for i, g in enumerate(outcome) if i in specs[1])
        for m in METRICS:
            seen[m].append(metric(m, sa, Wa + opened[0].mass, n_all) - metric(m, sb, Wb + opened[1].mass, n_all))
    got = difference_range((Sa, Wa, opened[0]), (Sb, Wb, opened[1]), n_dec, n_open)
    for m in METRICS:
        assert got[m]["low"] == pytest.approx(min(seen[m]), abs=1e-12)
        assert got[m]["high"] == pytest.approx(max(seen[m]), abs=1e-12)
