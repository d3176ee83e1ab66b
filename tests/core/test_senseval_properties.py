"""The vectorised scorer2 policies against a naive per-instance reference, on random data."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hieradjudicate.core.records import AnnotationSource
from hieradjudicate.core.scoring.senseval import SenseMap, score_senseval

SENSES = ["1", "1.1", "1.2", "1.1a", "2", "2.1", "2.2", "2.3", "3", "U"]
PARENT = {"1.1": "1", "1.2": "1", "1.1a": "1.1", "2.1": "2", "2.2": "2", "2.3": "2"}
BRANCH = {"1": 2, "1.1": 3, "2": 4}
SMAP = SenseMap(dict(PARENT), dict(BRANCH))


def naive(key_tags, ans, policy, minimal):
    """Straight transcription of scorer2.md, one instance at a time."""
    def top(t):
        while t in PARENT:
            t = PARENT[t]
        return t

    def path(k):  # ancestors of k with the product of branching factors
        out, prod = [], 1
        while k in PARENT:
            k = PARENT[k]
            prod *= BRANCH[k]
            out.append((k, prod))
        return out

    total = score = attempted = 0.0
    for inst, ktags in key_tags.items():
        ks = [top(k) for k in ktags] if policy == "coarse" else list(ktags)
        if minimal and len(set(ks)) > 1:
            continue
        total += 1
        if inst not in ans:
            continue
        pairs = ans[inst]
        ws = [1.0] * len(pairs) if any(w is None for _, w in pairs) else [w for _, w in pairs]
        s = sum(ws)
        ws = [w / s for w in ws] if s > 1 else ws
        attempted += min(s, 1.0)
        inst_score = 0.0
        for (a, _), w in zip(pairs, ws):
            if policy == "fine":
                c = 1.0 if a in ks else 0.0
            elif policy == "coarse":
                c = 1.0 if top(a) in ks else 0.0
            else:
                c = 0.0
                for k in ks:
                    if a == k:
                        c += 1.0
                    elif a in dict(path(k)):
                        c += 1.0 / dict(path(k))[a]
                    elif k in dict(path(a)):
                        c += 1.0
                c = min(c, 1.0)
            inst_score += w * c
        score += min(inst_score, 1.0)
    return score, attempted, total


def build(rows, lexelt="w.n"):
    items, tags, it, tg, wt = {}, {}, [], [], []
    for inst, pairs in rows:
        i = items.setdefault(inst, len(items))
        for t, w in pairs:
            it.append(i)
            tg.append(tags.setdefault(t, len(tags)))
            wt.append(np.nan if w is None else w)
    return AnnotationSource("m", "senseval", ["s"], [lexelt] * len(items), list(items), list(tags),
                            np.array(it, np.int64), np.zeros(len(it), np.int64),
                            np.array(tg, np.int64), np.array(wt, float), np.arange(len(it)))


tag = st.sampled_from(SENSES)
weight = st.one_of(st.none(), st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 1.0, 2.0, 5.0]))
data = st.lists(
    st.tuples(st.lists(tag, min_size=1, max_size=3),
              st.one_of(st.none(), st.lists(st.tuples(tag, weight), min_size=1, max_size=3))),
    min_size=1, max_size=25)


@settings(max_examples=150, deadline=None)
@given(data=data, policy=st.sampled_from(["fine", "coarse", "mixed"]), minimal=st.booleans(),
       seed=st.integers(0, 2**16))
def test_matches_naive_reference(data, policy, minimal, seed):
    key_tags = {f"i{n}": kt for n, (kt, _) in enumerate(data)}
    ans = {f"i{n}": a for n, (_, a) in enumerate(data) if a is not None}
    key = build([(i, [(t, None) for t in kt]) for i, kt in key_tags.items()])
    order = np.random.default_rng(seed).permutation(len(ans))
    ans_rows = list(ans.items())
    answers = build([ans_rows[j] for j in order])
    r = score_senseval(key, answers, policy=policy, sense_map=SMAP, minimal=minimal)
    s, a, t = naive(key_tags, ans, policy, minimal)
    assert abs(r.score_sum - s) < 1e-9 and abs(r.attempted - a) < 1e-9 and r.total == t


@settings(max_examples=60, deadline=None)
@given(data=data)
def test_fine_le_mixed_le_coarse(data):
    key = build([(f"i{n}", [(t, None) for t in kt]) for n, (kt, _) in enumerate(data)])
    answers = build([(f"i{n}", a) for n, (_, a) in enumerate(data) if a is not None] or [("zz", [("1", None)])])
    f, m, c = (score_senseval(key, answers, policy=p, sense_map=SMAP).instance_score
               for p in ("fine", "mixed", "coarse"))
    ok = ~np.isnan(f)
    assert np.all(f[ok] <= m[ok] + 1e-12) and np.all(m[ok] <= c[ok] + 1e-12)
