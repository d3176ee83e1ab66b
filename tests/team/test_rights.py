"""Rights are enforced by the database: each login connects with plain SQL (as psql would) and
can do no more than the program lets it.  Blind pairs, conflicts, and who is recorded."""

from __future__ import annotations

import os
import threading

import psycopg
import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import conflicts, write_assignments
from tests.team.conftest import url

INSERT = ("INSERT INTO decisions (lexelt, instance, team_role, tags, source, status, decided_at)"
          " VALUES (%s, %s, %s, %s, 'manual', 'resolved', '2026-01-01T00:00:00.000Z')")


def ins(lexelt: str, instance: str, role: str, tag: str = "1") -> tuple[str, str, str, str]:
    return (lexelt, instance, role, f'["{tag}"]')


def sql(cluster, login: str, project: str) -> psycopg.Connection:  # type: ignore[no-untyped-def]
    conn = psycopg.connect(cluster.url(login, "team"), autocommit=True)
    conn.execute(f"SET search_path = {parse_location(url(cluster, login, project)).schema}")
    return conn


@pytest.fixture
def team(cluster, published: str) -> str:
    """bank.n.001 to alice alone, bank.n.002 to bob alone, bank.n.003 to both (blind)."""
    with PgStore.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead, [("bank.n", "bank.n.001", "alice", False),
                                 ("bank.n", "bank.n.002", "bob", False),
                                 ("bank.n", "bank.n.003", "alice", True),
                                 ("bank.n", "bank.n.003", "bob", True)])
    return published


def test_an_adjudicator_cannot_decide_another_s_instance_nor_in_another_name(cluster, team: str) -> None:
    with sql(cluster, "alice", team) as alice:
        alice.execute(INSERT, ins("bank.n", "bank.n.001", "adjudicator"))  # her own: allowed
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            alice.execute(INSERT, ins("bank.n", "bank.n.002", "adjudicator"))  # bob's
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            alice.execute(INSERT, ins("bank.n", "bank.n.004", "adjudicator"))  # nobody's
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # in bob's name
            alice.execute("INSERT INTO decisions (lexelt, instance, tags, source, status, decided_at,"
                          " team_role, decided_by) VALUES ('bank.n', 'bank.n.001', '[]', 'manual',"
                          " 'flagged', 'x', 'adjudicator', 'bob')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # posing as the lead
            alice.execute(INSERT, ins("bank.n", "bank.n.001", "lead"))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # history is append-only
            alice.execute("UPDATE decisions SET note = 'changed'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            alice.execute("DELETE FROM decisions")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # cannot assign herself work
            alice.execute("INSERT INTO assignments (lexelt, instance, adjudicator) VALUES "
                          "('bank.n', 'bank.n.002', 'alice')")
        assert alice.execute("SELECT count(*) FROM assignments").fetchone()[0] == 2  # her own only
        assert alice.execute("SELECT decided_by FROM decisions WHERE team_role = 'adjudicator'"
                             ).fetchall() == [("alice",)]


def test_a_viewer_and_a_stranger_cannot_write(cluster, team: str) -> None:
    with sql(cluster, "vic", team) as vic:
        assert vic.execute("SELECT count(*) FROM decisions").fetchone()[0] > 0  # reads
        for statement in (INSERT % ("'bank.n'", "'bank.n.001'", "'adjudicator'", "'[]'"),
                          "UPDATE settings SET value = '1'", "DELETE FROM files",
                          "INSERT INTO assignments (lexelt, instance, adjudicator) VALUES ('a','b','vic')",
                          "DROP TABLE decisions"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                vic.execute(statement)
    with psycopg.connect(cluster.url("mallory", "team"), autocommit=True) as m:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            m.execute(f"SELECT * FROM {parse_location(url(cluster, 'mallory', team)).schema}.decisions")
    with Session.open(url(cluster, "vic", team)) as s:  # the program says so before anything
        assert s.read_only and "vic is a viewer" in str(s.read_only_reason)
        with pytest.raises(ProjectError, match="viewer"):
            s.execute(Decide([Decision("bank.n", "bank.n.001", ("1",))]))


def test_the_program_refuses_an_unassigned_instance_in_one_line(cluster, team: str) -> None:
    with Session.open(url(cluster, "alice", team)) as s:
        with pytest.raises(ProjectError) as info:
            s.execute(Decide([Decision("bank.n", "bank.n.002", ("1",))]))
        assert "alice may not save 1 decision(s)" in str(info.value) and "nothing" in str(info.value)
        assert s.decisions.current("bank.n", "bank.n.002") is None or \
            s.decisions.current("bank.n", "bank.n.002").decided_by != "alice"


def test_blind_pair_halves_are_hidden_until_both_have_decided(cluster, team: str) -> None:
    with sql(cluster, "alice", team) as alice, sql(cluster, "bob", team) as bob:
        alice.execute(INSERT, ins("bank.n", "bank.n.003", "adjudicator"))
        seen_by_bob = "SELECT decided_by FROM decisions WHERE instance = 'bank.n.003' AND team_role = 'adjudicator'"
        assert bob.execute(seen_by_bob).fetchall() == []  # alice's half is hidden from bob
        bob.execute(INSERT, ins("bank.n", "bank.n.003", "adjudicator", "2"))
        assert sorted(bob.execute(seen_by_bob).fetchall()) == [("alice",), ("bob",)]  # both decided
        assert sorted(alice.execute(seen_by_bob).fetchall()) == [("alice",), ("bob",)]
    with Session.open(url(cluster, "bob", team)) as s:  # and the window shows what SQL shows
        assert {r.decided_by for r in s.store.history("bank.n", "bank.n.003")} >= {"alice", "bob"}


def test_a_blind_disagreement_goes_to_the_lead_who_resolves_it(cluster, team: str) -> None:
    with Session.open(url(cluster, "alice", team)) as a, Session.open(url(cluster, "bob", team)) as b:
        a.execute(Decide([Decision("bank.n", "bank.n.003", ("1.2",), note="alice's 'view'; --")]))
        with PgStore.open(url(cluster, "lead", team)) as lead:
            assert conflicts(lead) == []  # one half only: not yet a conflict
        b.execute(Decide([Decision("bank.n", "bank.n.003", ("2",))]))
    with Session.open(url(cluster, "lead", team)) as lead:
        rows = conflicts(lead.store)
        assert [(r.instance, r.decided_by, r.tags) for r in rows] == [
            ("bank.n.003", "alice", '["1.2"]'), ("bank.n.003", "bob", '["2"]')]
        assert rows[0].note == "alice's 'view'; --"
        lead.execute(Decide([Decision("bank.n", "bank.n.003", ("1.2",), note="lead")]))
        assert conflicts(lead.store) == []
        assert lead.decisions.current("bank.n", "bank.n.003").decided_by == "lead"


def test_two_people_deciding_one_instance_at_once_are_both_recorded_as_a_conflict(cluster, team: str) -> None:
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def decide(login: str, tag: str) -> None:
        try:
            with sql(cluster, login, team) as conn:
                barrier.wait(timeout=10)  # both start together (the server's chain orders the commits)
                with conn.transaction():
                    conn.execute(INSERT, ins("bank.n", "bank.n.003", "adjudicator", tag))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=decide, args=("alice", "1.1")),
               threading.Thread(target=decide, args=("bob", "2"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors
    with PgStore.open(url(cluster, "lead", team)) as lead:
        rows = lead.history("bank.n", "bank.n.003")
        assert sorted((r.decided_by, r.tags) for r in rows if r.decided_by in ("alice", "bob")) == [
            ("alice", ("1.1",)), ("bob", ("2",))]
        assert {r.decided_by for r in conflicts(lead)} == {"alice", "bob"}


def test_odd_login_names_and_texts_are_stored_as_given(cluster, published: str) -> None:
    odd = "o'brien\"; DROP TABLE x; --"
    with cluster.admin() as admin:
        admin.execute(psycopg.sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
            psycopg.sql.Identifier(odd), psycopg.sql.Literal("odd pw; '--")))
    with open(os.environ["PGPASSFILE"], "a", encoding="utf-8") as fh:
        fh.write(f"127.0.0.1:{cluster.port}:*:{odd}:odd pw; '--\n")
    from hieradjudicate.io.store.pg.transfer import grant

    grant(url(cluster, "lead", published), {"adjudicator": [odd]})
    with PgStore.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead, [("bank.n", "bank.n.010", odd, False)])
    from urllib.parse import quote

    odd_url = cluster.url(quote(odd, safe=""), "team", published)
    with Session.open(odd_url) as s:
        row = s.execute(Decide([Decision("bank.n", "bank.n.010", ("1",),
                                         note="semi;colon 'single' \"double\" $$dollar$$ \\back")]))[0]
        assert row.decided_by == odd
    with PgStore.open(url(cluster, "lead", published)) as lead:
        n_files = len(lead.files())
        back = lead.history("bank.n", "bank.n.010")[-1]
        assert (back.decided_by, back.note) == (odd, "semi;colon 'single' \"double\" $$dollar$$ \\back")
        weird = Decision("bank.n", "i\"1'; --", ("1",), note="sense'; DELETE FROM files;--")
        lead.append_decisions([weird.__class__(**{**weird.__dict__, "decided_by": "lead",
                                                  "decided_at": "2026-01-01T00:00:00.000Z"})])
        got = lead.history(weird.lexelt, weird.instance)
        assert [(r.lexelt, r.instance, r.tags, r.note) for r in got] == [
            (weird.lexelt, weird.instance, weird.tags, weird.note)]
        assert len(lead.files()) == n_files == 5


def test_even_the_lead_cannot_rewrite_history(cluster, team: str) -> None:
    with sql(cluster, "lead", team) as lead:
        lead.execute(INSERT, ins("bank.n", "bank.n.001", "lead"))
        for statement in ("UPDATE decisions SET note = 'changed'", "DELETE FROM decisions",
                          "TRUNCATE decisions CASCADE", "UPDATE batches SET label = 'x'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only|permission denied"):
                lead.execute(statement)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # in someone else's name
            lead.execute("INSERT INTO decisions (lexelt, instance, tags, source, status, decided_at,"
                         " decided_by) VALUES ('bank.n', 'bank.n.001', '[]', 'manual', 'flagged', 'x', 'alice')")
        assert lead.execute("SELECT decided_by FROM decisions ORDER BY id DESC LIMIT 1").fetchone() == ("lead",)
