"""The dashboard's and the report's paired significance tests (#25 item 1) on the demo project,
against the metrics API: the per-instance scores of every policy, the tests on them, the
gained/lost instances, the tables and the report section."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.gold import DecisionTracker
from hieradjudicate.app.dashboard.scores import TreeCredit, policy_scores
from hieradjudicate.app.dashboard.tables import tables
from hieradjudicate.app.paired import SEED
from hieradjudicate.app.report.html import render_report
from hieradjudicate.core.scoring.scoring import score_leaf
from hieradjudicate.core.compare.significance import METRICS, paired_test
from tests.app.test_dashboard import _rows, corpus  # noqa: F401  (the module fixture)


@pytest.fixture(scope="module")
def data(corpus):  # noqa: F811
    tracker = DecisionTracker(corpus, _rows(corpus))
    dash = Dashboard(corpus)
    return dash, tracker, dash.compute(tracker=tracker, n_resamples=20, intervals=True)


def test_tests_rest_on_every_policys_per_instance_scores(corpus, data) -> None:  # noqa: F811
    dash, tracker, d = data
    sig = d.significance
    gold = tracker.gold_set()
    names = [corpus.sets[k].name for k in dash.systems]
    assert sig is not None and sig.names == names and len(names) == 2
    assert sig.policies == ["leaf", "fine", "coarse", "mixed"] and sig.n == gold.n
    credit = TreeCredit(corpus.inventory)
    for policy in sig.policies:
        per = []
        for name in names:
            s = corpus.get_set(name)
            if policy == "leaf":
                r = score_leaf(s.leaves, s.rows, gold.leaves > 0, corpus.inst_lexelt, gold_rows=gold.rows,
                               attempted_weight=s.attempted)
                per.append((r.instance_score, r.instance_attempted))
            else:
                per.append(policy_scores(credit, s, gold, policy))
        np.testing.assert_allclose(sig.scores[policy], np.vstack([p[0] for p in per]), atol=1e-12)
        (t,) = sig.tests[policy]
        ref = paired_test(per[0][0], per[1][0], per[0][1], per[1][1], names=tuple(names), seed=SEED)  # compare's seed, not the agreement bootstrap's
        for m in METRICS:
            assert t.metrics[m] == ref.metrics[m]
        assert t.mcnemar == ref.mcnemar and t.holm == 0  # two systems: no correction claimed
        row = next(r for r in d.scores if r.system == names[0] and r.policy == policy)
        assert t.metrics["precision"].a == pytest.approx(row.precision, abs=1e-12)
        assert t.metrics["f1"].a == pytest.approx(row.f1, abs=1e-12)


def test_gained_and_lost_are_the_mcnemar_counts_and_name_instances(corpus, data) -> None:  # noqa: F811
    _, tracker, d = data
    sig = d.significance
    gold_rows = set(tracker.gold_set().rows.tolist())
    for policy in sig.policies:
        changes = sig.changes(policy, 0, 1)
        mc = sig.tests[policy][0].mcnemar
        assert sum(c.change == "gained" for c in changes) == mc.b_only
        assert sum(c.change == "lost" for c in changes) == mc.a_only
        assert {c.instance for c in changes} <= gold_rows
        for c in changes:
            right = (c.system_score or 0) >= 1 - 1e-9
            assert right == (c.change == "gained")


def test_tables_and_report_carry_the_tests(data) -> None:
    _, _, d = data
    heads, rows = tables(d)["paired_tests"]
    assert heads[:6] == ["gold", "policy", "group", "a", "b", "test"] and "p_Holm" in heads
    groups = len(d.significance.groups["fine"])  # every instance and each part of speech
    assert groups >= 2 and len(rows) == len(d.significance.policies) * groups * (len(METRICS) + 1)
    f1 = next(r for r in rows if r[1] == "fine" and r[2] == "all instances" and r[5] == "f1")
    t = d.significance.tests["fine"][0].metrics["f1"]
    assert f1[8] == t.difference and f1[11] == t.p_value
    page = render_report(d)
    assert "Paired significance tests" in page and "approximate randomization" in page


def test_open_instances_bound_the_figures(corpus, data) -> None:  # noqa: F811
    """The gold is being adjudicated (150 of 400 decided): each system's fine recall ranges from
    every open instance wrong to every open answer right; the joint range of the difference lies
    inside the one the two systems' own ranges allow, and holds the figure on the decided ones."""
    dash, tracker, d = data
    sig = d.significance
    o = sig.open_ranges
    gold = tracker.gold_set()
    o = {**o, **o["by_policy"]["fine"]}  # the fine policy's ranges
    assert o["decided"] == gold.n and o["open"] == corpus.n - gold.n > 0
    fine = sig.scores["fine"]
    for j, name in enumerate(sig.names):
        s = corpus.get_set(name)
        mass = float(s.attempted[~np.isin(s.rows, gold.rows)].sum())
        S = float(np.nansum(fine[j]))
        lo, hi = o["systems"][name]["recall"]
        assert lo == pytest.approx(S / corpus.n, abs=1e-12) and hi == pytest.approx((S + mass) / corpus.n, abs=1e-12)
    pair = o["pairs"][(0, 1)]
    for m in METRICS:
        ra, rb = o["systems"][sig.names[0]][m], o["systems"][sig.names[1]][m]
        assert ra[0] - rb[1] - 1e-12 <= pair[m]["low"] <= pair[m]["high"] <= ra[1] - rb[0] + 1e-12
        assert pair[m]["observed"] == pytest.approx(sig.tests["fine"][0].metrics[m].difference, abs=1e-12)


def test_the_quick_pass_leaves_the_tests_to_the_intervals_pass(corpus, data) -> None:  # noqa: F811
    dash, tracker, _ = data
    quick = dash.compute(tracker=tracker, n_resamples=0, intervals=False)
    assert quick.significance is None and quick.comparison is not None


@pytest.mark.parametrize("policy", ["leaf", "fine", "coarse", "mixed"])
def test_each_policys_open_range_is_compares(tmp_path, capsys, policy: str) -> None:
    """#31 item 4: the paired panel's "could flip" sentence gave the fine range under every policy's
    table; now each policy has its range, the one ``compare --gold P.hadj --policy`` prints."""
    import json

    from hieradjudicate.app.session.session import Session
    from hieradjudicate.cli.entry import main
    from tests.conftest import DEMO

    path = tmp_path / "demo.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ("annotator_ann.key", "annotator_ben.key", "annotator_cho.key"):
        args += ["--annotations", str(DEMO / name)]
    systems = [("lesk", DEMO / "system_lesk.ans"), ("neural", DEMO / "system_neural.ans")]
    for name, p in systems:
        args += ["--annotations", f"{name}={p}:system"]
    assert main(args) == 0
    assert main(["project", "resolve-agreed", str(path)]) == 0
    with Session.open(str(path), read_only=True) as s:
        tracker = DecisionTracker(s.corpus, s.store.iter_history())
        d = Dashboard(s.corpus).compute(tracker=tracker, n_resamples=0, intervals=True)
    capsys.readouterr()
    assert main(["compare", "--gold", str(path), "--inventory", str(DEMO / "inventory.txt"), "--policy", policy,
                 *[a for n, p in systems for a in ("--system", f"{n}={p}")], "--shuffles", "1", "--resamples", "1",
                 "--format", "json"]) == 0
    a = json.loads(capsys.readouterr().out)["adjudication"]
    o = d.significance.open_ranges
    assert (o["decided"], o["open"]) == (a["decided"], a["open"]) and o["open"] > 0
    mine = o["by_policy"][policy]
    assert mine["joint"] == a["joint"]
    for m in METRICS:
        got, want = mine["pairs"][(0, 1)][m], a["pairs"][0][m]
        assert (got["low"], got["high"]) == pytest.approx((want["low"], want["high"]), abs=1e-9)
        assert got["could_flip"] == want["could_flip"]
        for name in ("lesk", "neural"):
            assert mine["systems"][name][m] == pytest.approx(a["systems"][name][m], abs=1e-9)
