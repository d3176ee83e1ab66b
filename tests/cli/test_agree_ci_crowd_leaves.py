"""``agree --ci`` on a crowd reads its one-leaf-per-row layout, never a dense leaf-vector array.

The intervals (pairs, Fleiss, alpha; BCa and percentile; all instances and a selection) equal to
1e-12 those :func:`~hieradjudicate.core.agreement.bootstrap.bootstrap_figures` gives on the dense
long form of the same sets, while neither ``Corpus.long_form`` (the dense ``(labels, leaves)``
array) nor the layout's dense ``P`` is made on the way.
"""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.stats import Stats
from hieradjudicate.cli.metrics import _agree_ci
from hieradjudicate.core.agreement.bootstrap import bootstrap_figures
from hieradjudicate.core.layout_tags import LeafLayout
from hieradjudicate.core.model import Corpus, CorpusBuilder
from hieradjudicate.core.records import InventorySource, SenseRecord
from tests.core.helpers import FIGURE1, annotation_source

LEXELTS = ("x.n", "y.v")
LEAVES = ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3"]
RESAMPLES = 60


def _crowd() -> Corpus:
    """Two lexelts with Figure 1's tree; 8 workers, 2 to 4 per instance, one label (a leaf) each."""
    rng = np.random.default_rng(5)
    recs = [SenseRecord(lex, s, p, line=1 + k, file="inv.txt") for lex in LEXELTS for k, (s, p) in enumerate(FIGURE1)]
    rows = []
    for lex in LEXELTS:
        for i in range(30):
            for w in rng.choice(8, size=int(rng.integers(2, 5)), replace=False):
                rows.append((lex, f"i{i}", f"w{w}", [(LEAVES[int(rng.integers(len(LEAVES)))], None)]))
    b = CorpusBuilder()
    b.add_inventory(InventorySource("inv.txt", "test", recs))
    b.add_annotations(annotation_source(rows))
    return b.build()


def _intervals(ci: dict) -> list[float]:
    vals = [ci["fleiss"][0], ci["fleiss"][1], ci["alpha"][0], ci["alpha"][1], ci["fleiss_bias"], ci["alpha_bias"]]
    for p in ci["pairs"]:
        vals += [*p["kappa_scott"], *p["kappa_cohen"]]
    return [np.nan if v is None else float(v) for v in vals]


def _dense_intervals(corpus: Corpus, sets: list[int], instances, method: str) -> list[float]:
    inst, rater, P, _ = corpus.long_form(sets=sets)
    assert P.shape == (len(inst), corpus.inventory.K) and P.shape[0] > corpus.n  # the dense array
    if instances is not None:
        keep = np.isin(inst, instances)
        inst, rater, P = inst[keep], rater[keep], P[keep]
    pairs = [(a, b) for a in range(len(sets)) for b in range(a + 1, len(sets))]
    bf = bootstrap_figures(inst, rater, P, corpus.inst_lexelt, pairs=pairs, n_lexelts=len(LEXELTS),
                           n_resamples=RESAMPLES, method=method, seed=3)
    vals = [bf.fleiss.low, bf.fleiss.high, bf.alpha.low, bf.alpha.high, bf.fleiss.bias, bf.alpha.bias]
    for key in pairs:
        s, k = bf.pairs[key]
        vals += [s.low, s.high, k.low, k.high]
    return [np.nan if v is None else float(v) for v in vals]


@pytest.mark.parametrize("method", ["bca", "percentile"])
@pytest.mark.parametrize("selected", [False, True])
def test_agree_intervals_of_a_crowd_equal_the_dense_long_form_without_making_it(method, selected, monkeypatch):
    dense = _crowd()
    sets = list(range(len(dense.sets)))
    instances = np.arange(0, dense.n, 2) if selected else None
    want = _dense_intervals(dense, sets, instances, method)

    crowd = _crowd()
    stats = Stats(crowd)
    assert isinstance(crowd.layout(sets), LeafLayout)

    def refuse_long_form(self, *a, **k):
        raise AssertionError("agree --ci made the dense long form")

    made = LeafLayout.P.fget

    def refuse_p(self):
        if self.__dict__.get("_P") is None:
            raise AssertionError("agree --ci made a crowd layout's dense P")
        return made(self)

    monkeypatch.setattr(Corpus, "long_form", refuse_long_form)
    monkeypatch.setattr(LeafLayout, "P", property(refuse_p, LeafLayout.P.fset))
    got = _agree_ci(stats, sets, None, RESAMPLES, instances, method, 3)
    assert len(got["pairs"]) > 10 and got["fleiss"][0] is not None and got["alpha"][0] is not None
    assert all(s._leaves is None for s in crowd.sets)  # no set's (rows, leaves) array either
    np.testing.assert_allclose(_intervals(got), want, rtol=0, atol=1e-12)
