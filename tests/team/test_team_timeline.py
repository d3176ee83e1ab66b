"""The lead's team timeline (#32): per adjudicator and day, the figures ``project progress`` would
have shown at the end of that day, checked against an independent computation on the same
cut-off (scikit-learn's Cohen kappa on the overlap pairs, the overturns counted row by row)."""

from __future__ import annotations

import json

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.team import figures
from hieradjudicate.app.timeline.team import team_timeline
from hieradjudicate.cli.entry import main
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.team import adjudicator_rows, assigned, lead_rows, write_assignments
from tests.gui.conftest import private_dirs  # noqa: F401
from tests.team.conftest import url

sklearn_metrics = pytest.importorskip("sklearn.metrics")

LEAVES = ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "4"]
# (day, who, instance number, tag): blind pairs of alice and bob, carol alone, the lead overturning
PLAN = [(1, "alice", 0, "1.1"), (1, "bob", 0, "1.1"), (1, "alice", 1, "2.1"), (1, "bob", 1, "2.2"),
        (1, "carol", 10, "4"), (1, "alice", 2, "3.1"),
        (2, "bob", 2, "3.1"), (2, "alice", 3, "1.2"), (2, "bob", 3, "1.2"), (2, "lead", 1, "2.1"),
        (2, "alice", 4, "4"), (2, "bob", 4, "3.2"), (2, "carol", 11, "1.1"),
        (3, "alice", 5, "2.2"), (3, "bob", 5, "2.2"), (3, "lead", 4, "1.1"), (3, "lead", 11, "1.1"),
        (3, "alice", 6, "1.1"), (3, "bob", 6, "1.2")]


@pytest.fixture
def three_days(cluster, published: str):  # type: ignore[no-untyped-def]
    with Session.open(url(cluster, "lead", published)) as lead:
        keys = [k for k in lead.instances() if k[0] == "bank.n" and lead.decisions.current(*k) is None][:12]
        write_assignments(lead.store, [(*keys[i], p, True) for i in range(8) for p in ("alice", "bob")]
                          + [(*keys[i], "carol", False) for i in (10, 11)])
    sessions = {who: Session.open(url(cluster, who, published)) for who in ("alice", "bob", "carol", "lead")}
    ids_by_day: dict[int, list[int]] = {}
    try:
        for day, who, i, tag in PLAN:
            sessions[who].execute(Decide([Decision(*keys[i], (tag,))]))
            ids_by_day.setdefault(day, []).append(max(r.id for r in sessions[who].store.history(*keys[i])))
    finally:
        for s in sessions.values():
            s.close()
    schema = parse_location(url(cluster, "lead", published)).schema
    with cluster.admin("team") as conn:  # the days: the server's commit times moved back, as a test may
        conn.execute(f"SET search_path = {schema}")
        conn.execute("SET session_replication_role = replica")
        for day, ids in ids_by_day.items():
            conn.execute(f"UPDATE decisions SET committed_at = '2026-03-0{day} 12:00:00+00' WHERE id = ANY(%s)", (ids,))
    return published, keys


def _oracle(plan_upto: list[tuple[int, str, int, str]],
            keys: object) -> dict[str, dict[str, float | int | None]]:
    """Per adjudicator, from the plan alone: decided, overturned, overlap pairs and Cohen's kappa."""
    answer: dict[tuple[str, int], tuple[int, str]] = {}  # (who, i) -> (order, tag)
    lead: dict[int, list[tuple[int, str]]] = {}
    for n, (_day, who, i, tag) in enumerate(plan_upto):
        if who == "lead":
            lead.setdefault(i, []).append((n, tag))
        else:
            answer[(who, i)] = (n, tag)
    out: dict[str, dict[str, float | int | None]] = {}
    for who in ("alice", "bob", "carol"):
        mine = {i: a for (w, i), a in answer.items() if w == who}
        over = 0
        for i, (n, tag) in mine.items():
            later = [t for m, t in lead.get(i, []) if m > n]
            over += bool(later) and later[-1] != tag
        other = {"alice": "bob", "bob": "alice"}.get(who)
        both = sorted(i for i in mine if other and (other, i) in answer)
        a = [mine[i][1] for i in both]
        b = [answer[(other, i)][1] for i in both]
        kappa = float(sklearn_metrics.cohen_kappa_score(a, b, labels=LEAVES)) if both and len(set(a + b)) > 1 else None
        out[who] = {"decided": len(mine), "overturned": over, "pairs": len(both), "kappa": kappa,
                    "rate": over / len(mine) if mine else None}
    return out


def test_each_day_equals_progress_at_that_cut_off(cluster, three_days) -> None:
    project, keys = three_days
    with Session.open(url(cluster, "lead", project)) as lead:
        args = (lead.corpus, assigned(lead.store), adjudicator_rows(lead.store), lead_rows(lead.store))
        t = team_timeline(*args, by="day", n_resamples=50)
        now = {f.name: f for f in figures(*args, n_resamples=50)}
    assert [p.label for p in t.points] == ["2026-03-01", "2026-03-02", "2026-03-03"]
    for day, point in enumerate(t.points, start=1):
        upto = [step for step in PLAN if step[0] <= day]
        expect = _oracle(upto, keys)
        for who, e in expect.items():
            got = point.people[who]
            assert got.decided == e["decided"] and got.overturned == e["overturned"], (day, who)
            assert got.overturn.value == e["rate"]
            assert got.overlap_pairs == e["pairs"], (day, who)
            if e["kappa"] is None:
                assert got.cohen.value is None or e["pairs"] == 0 or got.cohen.value == pytest.approx(1.0)
            else:
                assert got.cohen.value == pytest.approx(e["kappa"], abs=1e-12), (day, who)
            speed = sum(1 for d, w, _i, _t in PLAN if d == day and w == who)
            assert got.decisions == speed
    last = t.points[-1].people  # the last point is what `project progress` shows now
    for who, f in now.items():
        assert last[who].cohen.value == (f.cohen.estimate.value if f.cohen else None)
        assert (last[who].decided, last[who].overturned) == (f.decided, f.overturned)


def test_each_adjudicator_gets_a_forecast_from_their_own_speed(cluster, three_days) -> None:
    project, _keys = three_days
    with Session.open(url(cluster, "lead", project)) as lead:
        t = team_timeline(lead.corpus, assigned(lead.store), adjudicator_rows(lead.store), lead_rows(lead.store),
                          by="day", n_resamples=200)
    f = {x.name: x for x in t.forecasts}
    assert (f["alice"].assigned, f["alice"].open) == (8, 1)  # 7 of her 8 decided
    assert (f["carol"].assigned, f["carol"].open) == (2, 0)
    # alice decided 3, 2, 2 on three days: 7/3 a day, one left
    assert f["alice"].forecast.per_day == pytest.approx(7 / 3)
    assert f["alice"].expected == "2026-03-04"


def test_project_timeline_measure_people_shows_the_team_figures(cluster, three_days, capsys) -> None:
    project, _keys = three_days
    code = main(["project", "timeline", url(cluster, "lead", project), "--measure", "people", "--format", "csv",
                 "--resamples", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [ln.split(",") for ln in out.splitlines()]
    cell = {(ln[0], ln[2]): ln[3] for ln in lines[1:]}
    expect = _oracle([s for s in PLAN if s[0] <= 2], _keys)
    assert float(cell[("2026-03-02", "kappa_cohen:alice")]) == pytest.approx(expect["alice"]["kappa"], abs=1e-9)
    assert float(cell[("2026-03-03", "overturn_rate:alice")]) == pytest.approx(
        _oracle(PLAN, _keys)["alice"]["rate"], abs=1e-9)
    assert cell[("2026-03-01", "decisions:carol")] == "1"
    code = main(["project", "timeline", url(cluster, "lead", project), "--format", "json", "--resamples", "0"])
    d = json.loads(capsys.readouterr().out)
    assert [p["label"] for p in d["team"]["points"]] == ["2026-03-01", "2026-03-02", "2026-03-03"]
    assert {x["adjudicator"] for x in d["team"]["forecasts"]} == {"alice", "bob", "carol"}
    code = main(["project", "timeline", url(cluster, "lead", project), "--measure", "people", "--resamples", "0"])
    out = capsys.readouterr().out
    assert code == 0 and "forecast alice: 1 of 8 assigned open at 2.333 decided per calendar day: done about " \
        "2026-03-04" in out, out
    assert "forecast carol: all 2 assigned decided" in out
    assert "kappa_cohen:carol" in out and "None" not in out  # no overlap: "undefined", as every figure says


@pytest.mark.parametrize("login, shown", [("lead", True), ("alice", False)])
def test_the_timeline_tab_shows_the_lead_each_adjudicator_over_time(qtbot, private_dirs, cluster, three_days,
                                                                   login: str, shown: bool) -> None:  # noqa: F811
    pytest.importorskip("PySide6")
    from PySide6.QtCore import Qt

    from hieradjudicate.gui.main_window import MainWindow

    project, keys = three_days
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.load_project(url(cluster, login, project))
    win.show()
    qtbot.waitExposed(win)
    tabs = win.dashboard.tabs
    k_tab = next(j for j in range(tabs.count()) if tabs.tabText(j) == "Timeline")
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(k_tab).center())
    page = win.dashboard.timeline
    qtbot.waitUntil(lambda: page.view is not None, timeout=60_000)
    team = page.team
    if not shown:  # an adjudicator sees no one's figures
        assert not team.isVisible() and team.timeline is None
        win.close_project()
        return
    qtbot.waitUntil(lambda: team.timeline is not None, timeout=60_000)
    assert team.isVisible()
    t = team.table
    head = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    cells = {(t.item(r, 0).text(), t.item(r, 1).text()): {h: t.item(r, c).text() for c, h in enumerate(head)}
             for r in range(t.rowCount())}
    assert {day for day, _ in cells} == {"2026-03-01", "2026-03-02", "2026-03-03"}
    expect = _oracle([s for s in PLAN if s[0] <= 2], keys)["alice"]
    assert cells[("2026-03-02", "alice")]["kappa (Cohen) 95% CI"].startswith(f"{expect['kappa']:.3f}")
    last = _oracle(PLAN, keys)["bob"]
    assert cells[("2026-03-03", "bob")]["overturn rate"] == f"{100 * last['rate']:.1f}% (n = {last['decided']})"
    assert "alice: 1 of 8 open" in team.forecasts.text() and "2026-03-04" in team.forecasts.text()
    assert "carol: all 2 decided" in team.forecasts.text()
    win.close_project()
