"""Per-group paired tests and gained/lost counts (#25 items 1-2) against plain loops."""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.compare.regression import ALL, Grouping, grouping, regression
from hieradjudicate.core.compare.regression import tests_by_group as by_group  # (not collected as a test)
from hieradjudicate.core.compare.significance import paired_test


def systems(n: int = 240, seed: int = 0):
    rng = np.random.default_rng(seed)
    s = rng.choice([0.0, 0.5, 1.0, np.nan], size=(3, n), p=[0.35, 0.1, 0.45, 0.1])
    w = (~np.isnan(s)).astype(float)
    lex = rng.choice(["a.n", "b.v", "c.n", "d.r"], size=n)
    return s, w, lex


def test_each_group_is_the_test_on_its_instances_with_holm_over_the_pairs() -> None:
    s, w, lex = systems()
    g = grouping("lexelt", lex)
    got = by_group(s, w, ["x", "y", "z"], [(0, 1), (0, 2), (1, 2)], [g], shuffles=500, resamples=200)
    assert list(got) == [ALL, "lexelt"] and sorted(got["lexelt"]) == ["a.n", "b.v", "c.n", "d.r"]
    for name, tests in got["lexelt"].items():
        sel = np.flatnonzero(lex == name)
        for t, (a, b) in zip(tests, [(0, 1), (0, 2), (1, 2)]):
            ref = paired_test(s[a, sel], s[b, sel], w[a, sel], w[b, sel], names=("x", "y"), shuffles=500,
                              resamples=200)
            assert t.n == sel.size and t.holm == 3
            assert t.metrics["f1"].p_value == ref.metrics["f1"].p_value
            assert t.metrics["recall"].low == ref.metrics["recall"].low
            assert t.mcnemar.p_value == ref.mcnemar.p_value and t.mcnemar.p_holm >= t.mcnemar.p_value
    assert got[ALL][ALL][0].n == s.shape[1]


def test_gained_and_lost_per_group_equal_a_loop() -> None:
    s, _, lex = systems(seed=3)
    right = np.nan_to_num(s, nan=0.0) >= 1.0
    g = grouping("lexelt", lex)
    depth = Grouping("depth", np.array([i % 3 - 1 for i in range(s.shape[1])]), ["1", "2"])  # -1: none
    r = regression(right[0], right[2], [g, depth], baseline="x", system="z")
    gained = [i for i in range(s.shape[1]) if right[2, i] and not right[0, i]]
    lost = [i for i in range(s.shape[1]) if right[0, i] and not right[2, i]]
    assert r.gained.tolist() == gained and r.lost.tolist() == lost
    for name in g.names:
        want = (sum(lex[i] == name for i in gained), sum(lex[i] == name for i in lost))
        assert r.by["lexelt"].get(name, (0, 0)) == want
    assert sum(v[0] for v in r.by["depth"].values()) == sum(i % 3 != 0 for i in gained)
