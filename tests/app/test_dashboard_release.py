"""#23 item 5 (memory): a crowd's dense ``P`` is made for the dashboard's figures and dropped after.

The corpus' shared layout of a crowd holds one leaf per row; the dashboard's heat map, lexelt bars
and depth curve still read the dense ``P`` (MASC: 147 MB).  It is dropped once the figures are
computed (it was kept for the session, beside the competence estimate's arrays), and the next
computation makes it again: the same figures.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.core.layout_tags import LeafLayout
from tests.core.helpers import annotation_source, build


def _crowd():
    rng = np.random.default_rng(5)
    leaves = ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3"]
    rows = []
    for i in range(60):
        for w in rng.choice(20, size=6, replace=False):
            rows.append(("x.n", f"i{i}", f"w{w}", [(leaves[int(rng.integers(len(leaves)))], None)]))
    return build([annotation_source(rows)])


def _figures(data):
    return (data.lexelts.overall.value, data.lexelts.macro, [b.value for b in data.lexelts.bars],
            np.asarray(data.heatmap.value).tolist())


def test_the_crowd_layouts_dense_p_is_dropped_after_the_figures_and_remade_alike() -> None:
    corpus = _crowd()
    dash = Dashboard(corpus)
    first = dash.compute(n_resamples=0)
    lay = corpus.layout(dash.sets)
    assert isinstance(lay, LeafLayout)
    assert lay.__dict__.get("_P") is None  # dropped: not kept beside everything else
    again = Dashboard(corpus).compute(n_resamples=0)  # made again from the leaves
    assert _figures(first) == _figures(again)
    dense = lay.P  # and the same P as the leaves say
    assert np.array_equal(dense, np.eye(lay.n_leaves)[lay.__dict__["onehot_leaf"]])
