"""An instance whose adjudicators differ is in conflict, not resolved by whichever row is newest:
status, export, the report and a following window count it "in conflict" until the lead decides."""

from __future__ import annotations

import io
import json
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.follow import ServerFollower
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.io.store.pg.team import write_assignments
from tests.team.conftest import url

KEY = ("bank.n", "")  # set by the fixture: an instance of bank.n nobody has decided yet


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def pair(cluster, published: str) -> str:
    """An open bank.n instance to alice and bob, blind."""
    global KEY
    with Session.open(url(cluster, "lead", published)) as lead:
        KEY = next(k for k in lead.instances() if k[0] == "bank.n" and lead.decisions.current(*k) is None)
        write_assignments(lead.store, [(*KEY, "alice", True), (*KEY, "bob", True)])
    return published


def _decide(cluster, project: str, login: str, tags: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    with Session.open(url(cluster, login, project)) as s:
        s.execute(Decide([Decision(*KEY, tags)]))


def test_a_blind_pair_that_differs_is_in_conflict_in_status_export_and_report(
        cluster, pair: str, tmp_path: Path) -> None:
    u = url(cluster, "lead", pair)
    before = json.loads(cli("project", "status", u, "--format", "json")[1])["status"]
    assert before["conflict"] == 0
    _decide(cluster, pair, "alice", ("1.2",))
    _decide(cluster, pair, "bob", ("2",))  # bob's row is the newest: it must not become the gold
    with Session.open(u) as s:
        assert s.decisions.current(*KEY) is None and s.decisions.status(*KEY) == "conflict"
        assert [r.note for r in s.decisions.conflicts()] == ["adjudicators differ: alice: 1.2; bob: 2"]
    st = json.loads(cli("project", "status", u, "--format", "json")[1])["status"]
    assert st["conflict"] == 1 and st["resolved"] == before["resolved"]
    assert st["unresolved"] == before["unresolved"] - 1
    code, out, err = cli("project", "status", u)
    assert code == 0 and "1 in conflict" in out and "1 instance(s) in conflict" in out
    key_file = tmp_path / "gold.key"
    code, out, err = cli("project", "export", u, "--format", "senseval", "-o", str(key_file))
    assert code == 0, err
    assert "left out" in out and "1 in conflict (adjudicators differ; the lead decides)" in out
    assert f" {KEY[1]} " not in key_file.read_text(encoding="utf-8")
    code, out, err = cli("project", "export", u, "--format", "csv", "--include-unresolved",
                         "-o", str(tmp_path / "all.csv"))
    line = [x for x in (tmp_path / "all.csv").read_text(encoding="utf-8").splitlines() if f",{KEY[1]}," in x]
    assert len(line) == 1 and ",conflict," in line[0] and "alice: 1.2; bob: 2" in line[0]
    code, out, err = cli("report", u, "-o", str(tmp_path / "r.html"), "--resamples", "0")
    assert code == 0, err
    assert "in conflict (the lead decides)" in (tmp_path / "r.html").read_text(encoding="utf-8")
    # the lead decides: the conflict is closed and the lead's answer is the project's
    with Session.open(u) as s:
        s.execute(Decide([Decision(*KEY, ("2",), note="lead")]))
    st = json.loads(cli("project", "status", u, "--format", "json")[1])["status"]
    assert st["conflict"] == 0 and st["resolved"] == before["resolved"] + 1
    with Session.open(u) as s:
        assert s.decisions.current(*KEY).decided_by == "lead"


def test_a_blind_pair_that_agrees_is_resolved(cluster, pair: str) -> None:
    _decide(cluster, pair, "alice", ("1.2",))
    _decide(cluster, pair, "bob", ("1.2",))
    with Session.open(url(cluster, "lead", pair)) as s:
        assert s.decisions.status(*KEY) == "resolved" and s.decisions.current(*KEY).tags == ("1.2",)
        assert s.decisions.conflicts() == []


def test_a_following_window_sees_the_conflict_arrive_and_close(cluster, pair: str) -> None:
    with Session.open(url(cluster, "lead", pair)) as lead:
        follower = ServerFollower(lead)
        seen: list = []
        lead.decisions.subscribe(seen.extend)
        _decide(cluster, pair, "alice", ("1.2",))
        _decide(cluster, pair, "bob", ("2",))
        deadline = time.monotonic() + 5
        while lead.decisions.status(*KEY) != "conflict" and time.monotonic() < deadline:
            follower.poll()
            time.sleep(0.02)
        assert lead.decisions.status(*KEY) == "conflict"  # not bob's answer as the latest row
        assert seen[-1].status == "conflict"  # the table and the live figures were told
        lead.execute(Decide([Decision(*KEY, ("1.2",))]))
        follower.poll()
        time.sleep(0.3)
        follower.poll()
        assert lead.decisions.status(*KEY) == "resolved" and lead.decisions.current(*KEY).decided_by == "lead"
        follower.close()


def test_undoing_the_lead_s_decision_opens_the_conflict_again_and_redo_closes_it(cluster, pair: str) -> None:
    _decide(cluster, pair, "alice", ("1.2",))
    _decide(cluster, pair, "bob", ("2",))
    with Session.open(url(cluster, "lead", pair)) as s:
        s.execute(Decide([Decision(*KEY, ("2",))]))
        assert s.decisions.status(*KEY) == "resolved"
        s.undo()
        assert s.decisions.status(*KEY) == "conflict"
        assert s.decisions.conflict_row(*KEY).note == "adjudicators differ: alice: 1.2; bob: 2"
        with Session.open(url(cluster, "lead", pair)) as other:  # as the server holds it
            assert other.decisions.status(*KEY) == "conflict"
        s.redo()
        assert s.decisions.status(*KEY) == "resolved" and s.decisions.current(*KEY).tags == ("2",)
    with Session.open(url(cluster, "lead", pair)) as s:
        assert s.decisions.status(*KEY) == "resolved" and s.decisions.conflicts() == []
