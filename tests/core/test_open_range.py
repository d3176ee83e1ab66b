"""The range of figures over the outcomes of instances still being adjudicated (#25 item 3),
against enumerating every outcome (every gold tag set of every open instance)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hieradjudicate.core.scoring.open_range import METRICS, difference_range, normalise, system_range

TAGS = 4  # tags 0..2 answered by someone; tag 3 by nobody


def metric(m: str, S: float, W: float, n: int) -> float:
    p, r = S / W, S / n
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}[m]


def answers(spec: dict[int, dict[int, float]], share: dict[int, float] | None = None):
    rows = [(i, t, w) for i, d in spec.items() for t, w in d.items()]
    i, t, w = (np.array(c) for c in zip(*rows, strict=True))
    return normalise(i, t, w, None if share is None else np.array([share[x] for x in i.tolist()]))


@pytest.mark.parametrize("seed", range(6))
def test_ranges_equal_enumerating_every_outcome(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_open, n_dec = 3, 5
    spec_a, spec_b = {}, {}
    for i in range(n_open):
        for spec in (spec_a, spec_b):
            if rng.random() < 0.8:
                k = int(rng.integers(1, 3))
                tags = rng.choice(3, size=k, replace=False)
                spec[i] = {int(t): float(w) for t, w in zip(tags, rng.choice([np.nan, 1.0, 3.0], size=k))}
    share = {i: float(rng.choice([1.0, 0.5])) for i in range(n_open)}  # partial answers too
    oa, ob = answers(spec_a, share), answers(spec_b)
    Sa, Wa, Sb, Wb = 2.5, 4.0, 3.0, 5.0
    wa = {(i, t): w for i, t, w in zip(oa.inst.tolist(), oa.tag.tolist(), oa.weight.tolist())}
    wb = {(i, t): w for i, t, w in zip(ob.inst.tolist(), ob.tag.tolist(), ob.weight.tolist())}
    golds = [g for r in range(1, TAGS + 1) for g in itertools.combinations(range(TAGS), r)]
    n_all = n_dec + n_open
    seen = {m: [] for m in METRICS}
    own = {m: ([], []) for m in METRICS}
    for outcome in itertools.product(golds, repeat=n_open):
        sa = Sa + sum(wa.get((i, t), 0.0) for i, g in enumerate(outcome) for t in g)
        sb = Sb + sum(wb.get((i, t), 0.0) for i, g in enumerate(outcome) for t in g)
        for m in METRICS:
            va, vb = metric(m, sa, Wa + oa.mass, n_all), metric(m, sb, Wb + ob.mass, n_all)
            seen[m].append(va - vb)
            own[m][0].append(va)
            own[m][1].append(vb)
    got = difference_range((Sa, Wa, oa), (Sb, Wb, ob), n_dec, n_open)
    ra = system_range(Sa, Wa, n_dec, oa, n_open)
    rb = system_range(Sb, Wb, n_dec, ob, n_open)
    for m in METRICS:
        assert got[m]["low"] == pytest.approx(min(seen[m]), abs=1e-12)
        assert got[m]["high"] == pytest.approx(max(seen[m]), abs=1e-12)
        assert got[m]["observed"] == pytest.approx(metric(m, Sa, Wa, n_dec) - metric(m, Sb, Wb, n_dec))
        obs = got[m]["observed"]
        flips = any(np.sign(v) != np.sign(obs) for v in seen[m])
        assert got[m]["could_flip"] == flips
        if oa.answered:  # each system's range: none to all of its answers chosen
            assert ra[m] == pytest.approx([min(own[m][0]), max(own[m][0])], abs=1e-12)
        if ob.answered:
            assert rb[m] == pytest.approx([min(own[m][1]), max(own[m][1])], abs=1e-12)


def test_normalise_splits_evenly_without_weights_and_scales_given_ones() -> None:
    o = normalise(np.array([0, 0, 1, 1]), np.array([2, 5, 1, 3]), np.array([np.nan, np.nan, 3.0, 1.0]))
    assert o.weight.tolist() == [0.5, 0.5, 0.75, 0.25] and o.answered == 2


def test_identical_answers_never_flip() -> None:
    o = answers({0: {1: 1.0}, 1: {2: 1.0}})
    got = difference_range((3.0, 4.0, o), (2.0, 4.0, o), 5, 2)
    assert not got["recall"]["could_flip"] and got["recall"]["low"] == pytest.approx(1 / 7)
