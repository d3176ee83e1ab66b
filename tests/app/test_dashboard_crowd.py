"""The dashboard at crowd size: pair categories only when asked, one pass of the group figures."""

from __future__ import annotations

import numpy as np

from hieradjudicate.app.dashboard import agree
from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.columns import group_category, pair_category
from hieradjudicate.core.agreement.pairwise import pairwise_matrix
from hieradjudicate.core.agreement.granularity import IDENTICAL
from tests.crowd import crowd_project


def test_crowd_worst_category_equals_every_annotator_pair(tmp_path):
    path = crowd_project(tmp_path / "c.hadj", 20, per_item=7)
    with Session.open(path, read_only=True) as s:
        c = s.corpus
        raters = list(range(len(c.sets)))
        got, _, m = group_category(c, raters)  # more than 12 raters: the distinct-answer pairs
        want = np.full(c.n, -1, np.int8)
        for a in raters:
            for b in raters[a + 1:]:
                np.maximum(want, pair_category(c, a, b)[0], out=want)
        np.testing.assert_array_equal(got, want)
        assert (got == 3).any() and (got == IDENTICAL).any()
        d = Dashboard(c)
        np.testing.assert_array_equal(d.worst_category, want)


def test_first_compute_asks_no_pair_for_its_categories(tmp_path, monkeypatch):
    path = crowd_project(tmp_path / "c.hadj", 40, per_item=6)
    calls = []
    real = agree.pair_categories
    monkeypatch.setattr("hieradjudicate.app.dashboard.dashboard.pair_categories",
                        lambda c, a, b: calls.append((a, b)) or real(c, a, b))
    with Session.open(path, read_only=True) as s:
        c = s.corpus
        d = Dashboard(c)
        data = d.compute(n_resamples=0)
        assert calls == []  # 780 pairs: none computed before a cell is hovered or clicked
        hm = data.heatmap
        a, b = map(int, np.argwhere(np.triu(hm.n > 0, 1))[0])
        e = hm.cell_explain[(b, a)]  # either order
        assert e is hm.cell_explain[(a, b)] and e.n == hm.n[a, b]
        assert len(calls) == 1
        cat, _ = pair_category(c, d.sets[a], d.sets[b])
        np.testing.assert_array_equal(hm.cell_instances(a, b), np.flatnonzero(cat > 0))
        counts = hm.category_counts
        off = ~np.eye(len(hm.names), dtype=bool)
        assert (counts.sum(axis=2)[off] == hm.n[off]).all()
        # the heat map's coefficients are those of the pairwise matrix of all sets
        inst, rater, P, _ = c.long_form(sets=d.sets)
        pm = pairwise_matrix(inst, rater, P, c.inst_lexelt, n_raters=len(d.sets), n_lexelts=len(c.inventory.lexelts))
        np.testing.assert_allclose(np.ma.filled(hm.value, np.nan), np.ma.filled(pm.kappa_cohen, np.nan),
                                   atol=1e-12)
        # depth-curve points are made when asked, and equal the curve's arrays
        dc = data.depth
        p = int(np.flatnonzero(dc.pair_n[:, -1] > 0)[0])
        assert dc.point_explain[(p, len(dc.levels) - 1)].n == dc.pair_n[p, -1]
        assert dc.point_explain[(-1, 0)].value == dc.group_values[0]


def test_a_selection_restricts_counts_cells_and_explains_alike(tmp_path):
    path = crowd_project(tmp_path / "c.hadj", 25, per_item=6)
    with Session.open(path, read_only=True) as s:
        c = s.corpus
        dash = Dashboard(c)
        sel = np.arange(0, c.n, 3)
        keep = np.zeros(c.n, bool)
        keep[sel] = True
        for measure in ("cohen", "alpha"):
            hm = dash.compute(selection=sel, n_resamples=0, measure=measure).heatmap
            off = ~np.eye(len(hm.names), dtype=bool)
            assert (hm.category_counts.sum(axis=2)[off] == hm.n[off]).all()  # the sweep, restricted
            for a, b in [(0, 1), (2, 7), (3, 20)]:
                cat, _ = pair_category(c, dash.sets[a], dash.sets[b])
                np.testing.assert_array_equal(hm.cell_instances(a, b), np.flatnonzero((cat > 0) & keep))
                assert hm.cell_explain[(a, b)].n == hm.n[a, b]


def test_the_dashboard_takes_the_workbenchs_category_column_and_its_progress_figures_stay_equal(tmp_path):
    from hieradjudicate.app.workbench.queue import Workbench

    path = crowd_project(tmp_path / "c.hadj", 20, per_item=7)
    with Session.open(path, read_only=True) as s:
        c = s.corpus
        own = Dashboard(c)
        want = own.compute(n_resamples=0).progress
        assert sum(want.remaining.values()) == c.n
        cols = Workbench(c).cols
        shared = Dashboard(c)
        assert shared.share_worst_category(cols.annotators, cols.category)
        assert shared.worst_category is cols.category  # not computed again
        np.testing.assert_array_equal(cols.category, own.worst_category)
        got = shared.compute(n_resamples=0).progress
        assert got.remaining == want.remaining
        assert {k: v.tolist() for k, v in got.remaining_instances.items()} == \
            {k: v.tolist() for k, v in want.remaining_instances.items()}
        assert not Dashboard(c).share_worst_category(cols.annotators[:-1], cols.category)  # another group
