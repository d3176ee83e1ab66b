"""#33: no dashboard figure makes a crowd's dense leaf vectors (MASC: 147 MB).

The heat map, the lexelt bars (with their bootstrap intervals) and the depth curve read the corpus'
one-leaf-per-row layout (:class:`~hieradjudicate.core.layout_tags.LeafLayout`) as Dawid & Skene,
alpha and the live figures do.  Here the dense ``P`` of such a layout raises when made, and every
figure, for every measure and with a selection, equals to the last bit the one computed from the
dense layout -- and the pairs' and lexelts' alphas equal the core functions on the dense long form.
"""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.agreement.bootstrap import bootstrap_alpha
from hieradjudicate.core.layout_tags import LeafLayout
from hieradjudicate.core.model import CorpusBuilder
from hieradjudicate.core.records import InventorySource, SenseRecord
from tests.core.helpers import FIGURE1, annotation_source

LEXELTS = ("x.n", "y.v")
LEAVES = ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3"]
RESAMPLES = 40


def _crowd():
    """Two lexelts with Figure 1's tree (three levels); 20 workers, 5 per instance; workers 18 and
    19 label only lexelt x.n's first and y.v's last instances (a pair that shares nothing)."""
    rng = np.random.default_rng(11)
    recs = [SenseRecord(lex, s, p, line=1 + k, file="inv.txt") for lex in LEXELTS for k, (s, p) in enumerate(FIGURE1)]
    rows = []
    for x, lex in enumerate(LEXELTS):
        for i in range(40):
            for w in rng.choice(18, size=5, replace=False):
                rows.append((lex, f"i{i}", f"w{w:02d}", [(LEAVES[int(rng.integers(len(LEAVES)))], None)]))
    rows.append(("x.n", "i0", "w18", [("A.2", None)]))
    rows.append(("y.v", "i39", "w19", [("B.1", None)]))
    b = CorpusBuilder()
    b.add_inventory(InventorySource("inv.txt", "test", recs))
    b.add_annotations(annotation_source(rows))
    return b.build()


def _floats(values) -> str:
    """Exact text of numbers (repr is the shortest string that reads back to the same double)."""
    return repr(np.ma.filled(np.ma.asarray(values, dtype=float), np.nan).tolist())


def _figures(data) -> list[str]:
    hm, lx, dc = data.heatmap, data.lexelts, data.depth
    bars = [(b.x, b.n, b.value, b.low, b.high, b.observed, b.expected, b.reason, b.fleiss, b.conger, b.alpha,
             b.mean_pair) for b in [*lx.bars, lx.overall]]
    return [_floats(hm.value), _floats(hm.observed), _floats(hm.expected), _floats(hm.n), repr(sorted(hm.reasons.items())),
            repr(bars), repr(lx.macro), _floats(dc.pair_values), _floats(dc.pair_n), repr(dc.group_values),
            repr(dc.group_n)]


@pytest.fixture
def no_dense_p(monkeypatch):
    """A crowd layout's dense P raises when a reader asks for it."""
    made = LeafLayout.P.fget

    def refuse(self):
        if self.__dict__.get("_P") is None:
            raise AssertionError("a dashboard figure made the crowd's dense P")
        return made(self)

    monkeypatch.setattr(LeafLayout, "P", property(refuse, LeafLayout.P.fset))


def _dense(corpus, sets_lists) -> None:
    """Give ``corpus`` dense layouts (a plain Layout of the same rows) for these sets."""
    cache = corpus.__dict__.setdefault("_layouts", {})
    for sets in {tuple(sorted(s)) for s in sets_lists}:
        lay = corpus.layout(list(sets))
        assert isinstance(lay, LeafLayout)
        P = np.eye(lay.n_leaves)[lay.onehot_leaf]  # what leaf_vectors gives a unit leaf vector
        cache[sets] = make_layout(lay.inst, lay.rater, P, corpus.inst_lexelt, n_lexelts=lay.n_lexelts)


@pytest.mark.parametrize("measure", ["cohen", "scott", "alpha"])
def test_dashboard_figures_of_a_crowd_never_make_its_dense_p_and_equal_the_dense_ones(measure, no_dense_p):
    dense = _crowd()
    dash_dense = Dashboard(dense)
    _dense(dense, [dash_dense.sets, dash_dense.group])
    sel = np.arange(0, dense.n, 3)
    want = [_figures(dash_dense.compute(n_resamples=RESAMPLES, measure=measure)),
            _figures(dash_dense.compute(selection=sel, n_resamples=RESAMPLES, measure=measure))]

    crowd = _crowd()
    dash = Dashboard(crowd)
    got = [_figures(dash.compute(n_resamples=RESAMPLES, measure=measure)),
           _figures(dash.compute(selection=sel, n_resamples=RESAMPLES, measure=measure))]
    assert isinstance(crowd.layout(dash.sets), LeafLayout)
    assert got == want
    data = dash.compute(n_resamples=RESAMPLES, measure=measure)
    assert data.heatmap.n[18, 19] == 0 and data.lexelts.bars and len(data.depth.levels) == 3


def test_crowd_pair_and_lexelt_alphas_equal_the_core_functions_on_the_dense_long_form(no_dense_p):
    crowd = _crowd()
    dash = Dashboard(crowd)
    data = dash.compute(n_resamples=RESAMPLES, measure="alpha")
    inst, rater, P, _ = crowd.long_form(sets=dash.sets)  # the sets' own leaf vectors, not the layout
    lex, X = crowd.inst_lexelt, len(LEXELTS)
    hm = data.heatmap
    checked = 0
    for a, b in [(0, 1), (2, 5), (3, 17), (0, 18)]:
        sel = (rater == a) | (rater == b)
        want = krippendorff_alpha(inst[sel], rater[sel], P[sel], lex, n_lexelts=X, coincidences=False).alpha.value
        got = hm.value[a, b]
        assert (want is None and got is np.ma.masked) or float(got) == want
        checked += want is not None
    assert checked >= 3
    for bar in data.lexelts.bars:
        rows = lex[inst] == bar.x
        ci = bootstrap_alpha(inst[rows], rater[rows], P[rows], np.zeros(lex.size, np.int64), n_lexelts=1,
                             n_resamples=RESAMPLES)
        assert (bar.low, bar.high) == (ci.low, ci.high)


def _gold_of(corpus, every: int):
    """A gold of every ``every``-th instance: the answer of the first set that answered it."""
    from hieradjudicate.core.inventory.leaves import leaf_vectors
    from hieradjudicate.core.model import AnnotationSet

    rows = np.arange(0, corpus.n, every, dtype=np.int64)
    node = np.full(rows.size, -1, np.int64)
    for s in corpus.sets:
        pos = s.position(rows)
        fill = (node < 0) & (pos >= 0)
        node[fill] = s.tag_node[s.tag_ptr[pos[fill]]]
    assert (node >= 0).all()
    ptr = np.arange(rows.size + 1, dtype=np.int64)
    gold = AnnotationSet("gold", "gold", rows, ptr, node, np.ones(rows.size), np.ones(rows.size))
    gold.leaves = leaf_vectors(corpus.inventory, ptr, node, gold.tag_weight)
    return gold


def _gold_rows(data) -> list[tuple]:
    return [(r.name, r.n, r.score, r.recall, r.kappa_cohen, r.kappa_scott, r.observed, r.expected_cohen, r.reason)
            for r in data.gold_agreement]


def test_a_crowds_figures_against_the_gold_keep_no_sets_leaf_vectors_and_equal_the_held_ones(no_dense_p):
    held = _crowd()
    for s in held.sets:
        _ = s.leaves  # every set holds its whole leaf vectors: what the figures read before
    gold = _gold_of(held, 3)
    want = _gold_rows(Dashboard(held).compute(gold=gold, n_resamples=0))

    crowd = _crowd()
    got = _gold_rows(Dashboard(crowd).compute(gold=_gold_of(crowd, 3), n_resamples=0))
    assert len(got) == len(crowd.sets) and any(r[1] for r in got)
    assert got == want
    assert [s.name for s in crowd.sets if s._leaves is not None] == []
