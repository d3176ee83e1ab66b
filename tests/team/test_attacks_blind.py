"""Blind means blind until both have given a real answer: a flag, a skip or a note does not open
the pair, through SQL or the program; the conflict queue and the figures compare the answers
given while the pair was blind and mark one changed after it opened."""

from __future__ import annotations

import psycopg
import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.team import figures
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import adjudicator_rows, assigned, conflicts, lead_rows, write_assignments
from tests.team.conftest import url

INSERT = ("INSERT INTO decisions (lexelt, instance, team_role, tags, source, status, decided_at, note)"
          " VALUES ('bank.n', 'bank.n.003', 'adjudicator', %s, 'manual', %s, '2026-01-01T00:00:00.000Z', %s)")
SEEN = ("SELECT decided_by FROM decisions WHERE instance = 'bank.n.003' AND team_role = 'adjudicator'"
        " AND decided_by <> current_user")


def login_sql(cluster, login: str, project: str) -> psycopg.Connection:  # type: ignore[no-untyped-def]
    conn = psycopg.connect(cluster.url(login, "team"), autocommit=True)
    conn.execute(f"SET search_path = {parse_location(url(cluster, login, project)).schema}")
    return conn


@pytest.fixture
def pair(cluster, published: str) -> str:
    with PgStore.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead, [("bank.n", "bank.n.003", "alice", True), ("bank.n", "bank.n.003", "bob", True)])
    return published


@pytest.mark.parametrize("status, tags, note", [("flagged", "[]", ""), ("skipped", "[]", ""),
                                                ("unresolved", "[]", "a note"), ("flagged", '["1"]', "")])
def test_a_flag_skip_or_note_does_not_unblind_the_pair(cluster, pair: str, status: str, tags: str,
                                                       note: str) -> None:
    with login_sql(cluster, "alice", pair) as alice, login_sql(cluster, "bob", pair) as bob:
        bob.execute(INSERT, ('["2"]', "resolved", ""))
        alice.execute(INSERT, (tags, status, note))
        assert alice.execute(SEEN).fetchall() == []  # bob's answer stays hidden from alice
        assert alice.execute("SELECT pair_open('bank.n', 'bank.n.003')").fetchone()[0] is False
        alice.execute(INSERT, ('["1"]', "resolved", ""))  # her real answer opens it
        assert alice.execute(SEEN).fetchall() == [("bob",)]


def test_an_answer_changed_after_the_pair_opened_is_marked_and_the_blind_one_compared(cluster, pair: str) -> None:
    with Session.open(url(cluster, "alice", pair)) as a, Session.open(url(cluster, "bob", pair)) as b:
        a.execute(Decide([Decision("bank.n", "bank.n.003", ("1",))]))
        b.execute(Decide([Decision("bank.n", "bank.n.003", ("2",))]))  # opens the pair: they differ
        a.execute(Decide([Decision("bank.n", "bank.n.003", ("2",))]))  # alice reads bob's, copies it
    with Session.open(url(cluster, "lead", pair)) as lead:
        rows = conflicts(lead.store)
        assert [(r.decided_by, r.tags, r.changed) for r in rows] == [
            ("alice", '["1"]', True), ("bob", '["2"]', False)]  # still a conflict, alice's change marked
        assert lead.decisions.status("bank.n", "bank.n.003") == "conflict"
        figs = {f.name: f for f in figures(lead.corpus, assigned(lead.store), adjudicator_rows(lead.store),
                                            lead_rows(lead.store), n_resamples=20)}
        assert (figs["alice"].changed_after_open, figs["bob"].changed_after_open) == (1, 0)
        assert figs["alice"].overlap_pairs == 1 and figs["alice"].scott.estimate.value < 1  # disagreement


def test_agreeing_blind_answers_are_no_conflict(cluster, pair: str) -> None:
    with Session.open(url(cluster, "alice", pair)) as a, Session.open(url(cluster, "bob", pair)) as b:
        a.execute(Decide([Decision("bank.n", "bank.n.003", ("1",))]))
        b.execute(Decide([Decision("bank.n", "bank.n.003", ("1",))]))
    with PgStore.open(url(cluster, "lead", pair)) as lead:
        assert conflicts(lead) == []
