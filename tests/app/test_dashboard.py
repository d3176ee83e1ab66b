"""Dashboard data against the metrics API on the demo project (every table and plot item)."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.gold import RESOLVED, DecisionTracker
from hieradjudicate.app.dashboard.scores import TreeCredit, policy_scores
from hieradjudicate.app.dashboard.tables import tables
from hieradjudicate.app.demo import demo_inputs, demo_specs
from hieradjudicate.app.loading.load import load
from hieradjudicate.app.stats import Stats
from hieradjudicate.app.workbench.columns import pair_category
from hieradjudicate.app.workbench.queue import Filter, Workbench
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_agreement, pairwise_matrix
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.compare.comparison import compare_systems
from hieradjudicate.core.agreement.granularity import expected_confusion, rollup, rollup_confusion
from hieradjudicate.core.agreement.lexelt_intervals import fleiss_intervals
from hieradjudicate.core.scoring.scoring import score_leaf
from hieradjudicate.io.store.project_store import DecisionRow

TOL = 1e-12
RESAMPLES = 200


@pytest.fixture(scope="module")
def corpus():
    inv, specs, ctx = demo_specs(demo_inputs())
    return load(inv, specs, ctx).corpus


def _rows(corpus, n: int = 150) -> list[DecisionRow]:
    """Decisions taking annotator ann's answer; every 37th flagged with a note; three days."""
    ann = corpus.get_set("ann")
    rows = []
    for r in range(n):
        i = int(ann.rows[r])
        lexelt, inst = corpus.instance_key(i)
        status = "flagged" if r % 37 == 0 else "resolved"
        rows.append(DecisionRow(r + 1, lexelt, inst, tuple(corpus.tag_strings(ann, r)), "set:ann", status,
                                "check <this>" if status == "flagged" else "", "lead",
                                f"2026-01-0{1 + r // 50}T10:00:00.000Z"))
    return rows


@pytest.fixture(scope="module")
def tracker(corpus):
    return DecisionTracker(corpus, _rows(corpus))


@pytest.fixture(scope="module")
def dash(corpus):
    return Dashboard(corpus)


@pytest.fixture(scope="module")
def data(dash, tracker):
    return dash.compute(tracker=tracker, n_resamples=RESAMPLES)


def _idx(corpus, names):
    return [corpus.set_names().index(n) for n in names]


def test_heatmap_cells_equal_pairwise_matrix(corpus, data, dash):
    hm = data.heatmap
    inst, rater, P, _ = corpus.long_form(sets=dash.sets)
    X = len(corpus.inventory.lexelts)
    pm = pairwise_matrix(inst, rater, P, corpus.inst_lexelt, n_raters=len(dash.sets), n_lexelts=X)
    assert hm.names == [corpus.sets[k].name for k in dash.sets]
    m = len(hm.names)
    for a in range(m):
        assert hm.value.mask[a, a]
        for b in range(m):
            if a != b:
                assert abs(hm.value[a, b] - pm.kappa_cohen[a, b]) < TOL
                assert hm.n[a, b] == pm.n[a, b]
                assert abs(hm.observed[a, b] - pm.observed[a, b]) < TOL


def test_heatmap_scott_and_alpha(corpus, dash, tracker):
    d = dash.compute(tracker=tracker, measure="scott", n_resamples=0)
    a, b = _idx(corpus, ["ben", "cho"])
    sa, sb = corpus.sets[a], corpus.sets[b]
    shared, ia, ib = np.intersect1d(sa.rows, sb.rows, return_indices=True)
    pa = pairwise_agreement(sa.leaves[ia], sb.leaves[ib], corpus.inst_lexelt[shared],
                            n_lexelts=len(corpus.inventory.lexelts))
    pa_, pb_ = dash.sets.index(a), dash.sets.index(b)
    assert abs(d.heatmap.value[pa_, pb_] - pa.scott.kappa.value) < TOL
    d = dash.compute(tracker=tracker, measure="alpha", n_resamples=0)
    inst, rater, P, _ = corpus.long_form(sets=[a, b])
    al = krippendorff_alpha(inst, rater, P, corpus.inst_lexelt, n_lexelts=len(corpus.inventory.lexelts))
    assert abs(d.heatmap.value[pa_, pb_] - al.alpha.value) < TOL
    assert d.heatmap.cell_explain[(pa_, pb_)].n == len(shared)


def test_heatmap_click_lists_exactly_the_pairs_disagreements(corpus, data, dash):
    hm = data.heatmap
    wb = Workbench(corpus)
    for a in range(len(hm.names)):
        for b in range(a + 1, len(hm.names)):
            got = hm.cell_instances(a, b)
            cat, _ = pair_category(corpus, dash.sets[a], dash.sets[b])
            assert np.array_equal(got, np.flatnonzero(cat > 0))  # shared and not identical
            # the same instances the workbench filter "this pair's disagreements" shows
            mask = wb.mask(Filter(pair=(dash.sets[a], dash.sets[b])))
            assert np.array_equal(got, np.flatnonzero(mask))
            assert np.array_equal(hm.cell_instances(b, a), got)
            assert hm.category_counts[a, b].sum() == hm.n[a, b]
            assert hm.category_counts[a, b, 1:].sum() == got.size


def test_lexelt_bars_equal_per_lexelt_figures(corpus, data, dash):
    inst, rater, P, _ = corpus.long_form(sets=dash.group)
    X = len(corpus.inventory.lexelts)
    multi = multi_rater_agreement(inst, rater, P, corpus.inst_lexelt, n_lexelts=X)
    alpha = krippendorff_alpha(inst, rater, P, corpus.inst_lexelt, n_lexelts=X)
    bars = data.lexelts
    assert bars.measure == "fleiss"
    assert len(bars.bars) == X
    for bar in bars.bars:
        assert bar.lexelt == corpus.inventory.lexelts[bar.x]
        assert abs(bar.value - multi.lexelt_fleiss[bar.x].kappa.value) < TOL
        assert abs(bar.alpha - alpha.lexelt_alpha[bar.x].value) < TOL
        assert bar.n == multi.lexelt_fleiss[bar.x].n
        assert bar.low <= bar.value <= bar.high
    assert abs(bars.overall.value - multi.fleiss.kappa.value) < TOL
    assert abs(bars.macro - multi.macro_fleiss.value) < TOL
    # the interval of a bar is its lexelt's stratum of the stratified bootstrap (one resampling for all)
    overall, per = fleiss_intervals(inst, rater, P, corpus.inst_lexelt, n_lexelts=X, n_resamples=RESAMPLES)
    for bar in bars.bars:
        assert (bar.low, bar.high) == (per[bar.x].low, per[bar.x].high)
    assert (bars.overall.low, bars.overall.high) == (overall.low, overall.high)
    x = bars.bars[0].x
    # sortable: ascending values, and a click on a bar filters to its lexelt
    vals = [b.value for b in bars.sorted("value")]
    assert vals == sorted(vals)
    assert [b.lexelt for b in bars.sorted("lexelt")] == sorted(b.lexelt for b in bars.bars)
    wb = Workbench(corpus)
    shown = wb.set_filter(lexelts=(x,))
    assert np.array_equal(np.sort(shown), np.flatnonzero(corpus.inst_lexelt == x))


def test_depth_curve_at_leaves_is_the_leaf_figure_and_depth_one_the_top_cut(corpus, data, dash):
    d = data.depth
    assert d.levels[-1] == "leaves" and d.depths[0] == 1
    st = Stats(corpus)
    pm, multi, _ = st.agreement(dash.group)
    for p, (a, b) in enumerate(d.pairs):
        ia, ib = [dash.group.index(k) for k in _idx(corpus, [a, b])]
        assert abs(d.pair_values[p, -1] - pm.kappa_cohen[ia, ib]) < TOL
    assert abs(d.group_values[-1] - multi.fleiss.kappa.value) < TOL
    pm1, multi1, _ = st.agreement(dash.group, depth=1)
    for p, (a, b) in enumerate(d.pairs):
        ia, ib = [dash.group.index(k) for k in _idx(corpus, [a, b])]
        assert abs(d.pair_values[p, 0] - pm1.kappa_cohen[ia, ib]) < TOL
    assert abs(d.group_values[0] - multi1.fleiss.kappa.value) < TOL


@pytest.mark.parametrize("depth", [None, 1])
def test_confusion_matrix_sums_and_cells(corpus, dash, depth):
    a, b = _idx(corpus, ["ann", "cho"])
    x = corpus.inventory.lexelts.index("bank.n")
    cf = dash.confusion(a, b, x, depth)
    sa, sb = corpus.sets[a], corpus.sets[b]
    shared, ia, ib = np.intersect1d(sa.rows, sb.rows, return_indices=True)
    in_x = corpus.inst_lexelt[shared] == x
    assert cf.n == int(in_x.sum())
    assert abs(cf.matrix.sum() - cf.n) < 1e-9  # each instance contributes mass 1
    C = expected_confusion(sa.leaves[ia], sb.leaves[ib], corpus.inst_lexelt[shared],
                           n_lexelts=len(corpus.inventory.lexelts))
    group, n_groups, _ = corpus.inventory.leaf_groups(depth)
    if depth is not None:
        C = rollup_confusion(C, group, n_groups)
    G = len(cf.labels)
    assert np.allclose(cf.matrix, C[x, :G, :G], atol=TOL)
    # observed agreement = trace / n equals the pair's Pr(A) within the lexelt at that cut
    pa_ = sa.leaves[ia][in_x]
    pb_ = sb.leaves[ib][in_x]
    if depth is not None:
        lx = np.full(cf.n, x)
        pa_, pb_ = rollup(pa_, lx, group, n_groups), rollup(pb_, lx, group, n_groups)
    assert abs(cf.explain.observed - pairwise_agreement(pa_, pb_).cohen.observed) < TOL
    # a cell lists exactly the instances with pa(r) * pb(c) > 0
    for (r, c), inst in cf.cells.items():
        pos_a = sa.position(inst)
        pos_b = sb.position(inst)
        ra = rollup(sa.leaves[pos_a], corpus.inst_lexelt[inst], group, n_groups)
        rb = rollup(sb.leaves[pos_b], corpus.inst_lexelt[inst], group, n_groups)
        assert np.all(ra[:, r] * rb[:, c] > 0)
        assert abs(float((ra[:, r] * rb[:, c]).sum()) - cf.matrix[r, c]) < 1e-9
    assert sum(len(v) > 0 for v in cf.cells.values()) == int((cf.matrix > 0).sum())
    if depth is None:
        assert cf.labels[0] == "1.1" and cf.glosses[0] == corpus.inventory.node_gloss[
            corpus.inventory.lookup(x, "1.1")]


def test_gold_agreement_matches_scoring_and_kappa(corpus, data, tracker):
    gold = tracker.gold_set()
    assert gold.n == int((tracker.status == RESOLVED).sum()) == data.gold_n
    X = len(corpus.inventory.lexelts)
    for row in data.gold_agreement:
        s = corpus.get_set(row.name)
        shared, ig, is_ = np.intersect1d(gold.rows, s.rows, return_indices=True)
        pa = pairwise_agreement(s.leaves[is_], gold.leaves[ig], corpus.inst_lexelt[shared], n_lexelts=X)
        assert row.n == shared.size
        assert abs(row.kappa_cohen - pa.cohen.kappa.value) < TOL
        sc = score_leaf(s.leaves, s.rows, gold.leaves > 0, corpus.inst_lexelt, gold_rows=gold.rows,
                        attempted_weight=s.attempted)
        assert abs(row.score - sc.figures.overall.precision) < TOL
    ann = next(r for r in data.gold_agreement if r.name == "ann")  # the decisions took ann's answers
    assert ann.score == pytest.approx(1.0)


def test_system_scores_and_comparison(corpus, data, tracker, dash):
    gold = tracker.gold_set()
    systems = [corpus.sets[k].name for k in dash.systems]
    assert {(r.system, r.policy) for r in data.scores} == {(s, p) for s in systems
                                                           for p in ("leaf", "fine", "coarse", "mixed")}
    leaf_rows = []
    for name in systems:
        s = corpus.get_set(name)
        sc = score_leaf(s.leaves, s.rows, gold.leaves > 0, corpus.inst_lexelt, gold_rows=gold.rows,
                        attempted_weight=s.attempted, leaf_dist=corpus.inventory.leaf_distance())
        row = next(r for r in data.scores if r.system == name and r.policy == "leaf")
        assert abs(row.precision - sc.figures.overall.precision) < TOL
        assert abs(row.recall - sc.figures.overall.recall) < TOL
        assert abs(row.cost - sc.cost) < TOL
        assert row.precision_ci[0] <= row.precision <= row.precision_ci[1]
        leaf_rows.append(sc.instance_score)
        fine = next(r for r in data.scores if r.system == name and r.policy == "fine").precision
        coarse = next(r for r in data.scores if r.system == name and r.policy == "coarse").precision
        mixed = next(r for r in data.scores if r.system == name and r.policy == "mixed").precision
        assert fine <= mixed + TOL and mixed <= coarse + TOL
    cmp = compare_systems(np.vstack(leaf_rows), names=systems)
    view = data.comparison
    assert view.histogram == [int(v) for v in cmp.difficulty.histogram]
    assert abs(view.kappa[0, 1] - cmp.pairwise.kappa[0, 1]) < TOL
    assert view.optimal_all == pytest.approx(cmp.optimal_all)
    for k, inst in enumerate(view.bar_instances):  # a bar lists exactly its instances
        assert inst.size == view.histogram[k]
        assert np.array_equal(inst, gold.rows[cmp.difficulty.n_right == k])


def test_senseval_policies_on_the_scorer2_rules(corpus):
    """fine/coarse/mixed credit rules: exact, same top sense, ancestor credit 1/b."""
    from hieradjudicate.app.dashboard.scores import restrict_gold

    inv = corpus.inventory
    credit = TreeCredit(inv)
    x = inv.lexelts.index("bank.n")
    n1, n11 = inv.lookup(x, "1"), inv.lookup(x, "1.1")
    assert credit.is_ancestor_or_self(np.array([n1]), np.array([n11]))[0]
    assert not credit.is_ancestor_or_self(np.array([n11]), np.array([n1]))[0]
    assert credit.cum[n11] / credit.cum[n1] == pytest.approx(0.5)
    gold = restrict_gold(corpus.get_set("ann"), None)
    s = corpus.get_set("ann")
    for policy in ("fine", "coarse", "mixed"):
        score, att = policy_scores(credit, s, gold, policy)
        assert np.allclose(score, 1.0)  # a set scored against itself


def test_progress_and_flagged(corpus, data, tracker):
    pr = data.progress
    assert pr.days == ["2026-01-01", "2026-01-02", "2026-01-03"]
    assert pr.decisions == [50, 50, 50]
    assert pr.resolved_at_end[-1] == data.gold_n
    assert pr.status_counts["resolved"] == data.gold_n
    assert pr.status_counts["flagged"] == len(pr.flagged) == 5
    assert all(f["note"] == "check <this>" for f in pr.flagged)
    open_ = tracker.status == 0
    assert sum(pr.remaining.values()) == int(open_.sum())
    wb = Workbench(corpus)
    for name, code in (("identical", 0), ("compatible", 1), ("overlapping", 2), ("disjoint", 3)):
        assert np.array_equal(pr.remaining_instances[name], np.flatnonzero(open_ & (wb.cols.category == code)))


def test_refresh_after_a_decision_and_withdrawal(corpus, dash):
    tr = DecisionTracker(corpus, _rows(corpus, 10))
    before = dash.compute(tracker=tr, n_resamples=0)
    lexelt, inst = corpus.instance_key(300)
    tr.apply([DecisionRow(100, lexelt, inst, ("1",), "manual", "resolved", "", "lead", "2026-01-05T09:00:00Z")])
    after = dash.compute(tracker=tr, n_resamples=0)
    assert after.gold_n == before.gold_n + 1
    assert after.heatmap is before.heatmap  # decision-independent parts come from the cache
    tr.apply([DecisionRow(101, lexelt, inst, (), "undo", "unresolved", "", "lead", "2026-01-05T09:01:00Z")])
    again = dash.compute(tracker=tr, n_resamples=0)
    assert again.gold_n == before.gold_n
    assert again.progress.withdrawals[-1] == 1


def test_selection_restricts_every_figure(corpus, dash, tracker):
    x = corpus.inventory.lexelts.index("run.v")
    sel = np.flatnonzero(corpus.inst_lexelt == x)
    d = dash.compute(None, sel, tracker=tracker, n_resamples=0)
    assert d.selection_n == sel.size
    assert [b.lexelt for b in d.lexelts.bars] == ["run.v"]
    for a in range(len(d.heatmap.names)):
        for b in range(a + 1, len(d.heatmap.names)):
            assert np.isin(d.heatmap.cell_instances(a, b), sel).all()
    assert d.gold_n == int(np.isin(tracker.gold_set().rows, sel).sum())


def test_tables_cover_every_figure_and_explain(data):
    t = tables(data)
    for name in ("pairwise", "lexelts", "depth", "confusion", "gold_agreement", "system_scores", "system_pairs",
                 "difficulty", "progress_days", "status", "remaining", "flagged"):
        headers, rows = t[name]
        assert headers and all(len(r) == len(headers) for r in rows), name
        for r in rows:
            assert all(v is None or isinstance(v, (str, int, float)) for v in r)
    for key, e in data.explains().items():
        assert e.title and e.what and e.formula, key
    e = data.heatmap.cell_explain[(0, 1)]
    assert e.observed is not None and e.expected is not None and e.n > 0 and "lexelt" in e.aggregation
