"""Following a server project: what others commit reaches a session, even when a transaction
that took an earlier id commits later; a blind pair's other half appears once both decided."""

from __future__ import annotations

import time

import psycopg

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.follow import ServerFollower
from hieradjudicate.app.session.session import Session
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.team import write_assignments
from tests.team.conftest import url


def _poll_until(follower: ServerFollower, want, timeout: float = 5.0) -> list:  # type: ignore[no-untyped-def]
    got: list = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got += follower.poll()
        if want(got):
            break
        time.sleep(0.02)
    return got


def _insert(conn: psycopg.Connection, instance: str, tag: str) -> None:
    conn.execute("INSERT INTO decisions (lexelt, instance, tags, source, status, decided_at, team_role)"
                 " VALUES ('bank.n', %s, %s, 'manual', 'resolved', '2026-01-01T00:00:00.000Z', 'lead')",
                 (instance, f'["{tag}"]'))


def test_a_transaction_that_commits_after_a_later_id_is_not_missed(cluster, published: str) -> None:
    schema = parse_location(url(cluster, "lead", published)).schema
    with Session.open(url(cluster, "vic", published)) as viewer:
        follower = ServerFollower(viewer)
        # two leads: one person's transactions are chained one after the other on the server
        from hieradjudicate.io.store.pg.transfer import grant

        grant(url(cluster, "lead", published), {"lead": ["mallory"]})
        slow = psycopg.connect(cluster.url("mallory", "team"))
        fast = psycopg.connect(cluster.url("lead", "team"), autocommit=True)
        for c in (slow, fast):
            c.execute(f"SET search_path = {schema}")
        _insert(slow, "bank.n.020", "4")  # takes id n, not committed yet
        _insert(fast, "bank.n.021", "4")  # takes id n+1 and commits first
        got = _poll_until(follower, lambda rows: any(r.instance == "bank.n.021" for r in rows))
        assert [r.instance for r in got] == ["bank.n.021"]
        slow.commit()
        got = _poll_until(follower, lambda rows: any(r.instance == "bank.n.020" for r in rows))
        assert [r.instance for r in got] == ["bank.n.020"]
        assert viewer.decisions.current("bank.n", "bank.n.020").tags == ("4",)
        slow.close()
        fast.close()
        follower.close()


def test_the_other_half_of_a_blind_pair_appears_once_both_have_decided(cluster, published: str) -> None:
    with Session.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead.store, [("bank.n", "bank.n.030", "alice", True),
                                       ("bank.n", "bank.n.030", "bob", True)])
    with Session.open(url(cluster, "alice", published)) as alice, \
            Session.open(url(cluster, "bob", published)) as bob:
        follow_alice, follow_bob = ServerFollower(alice), ServerFollower(bob)
        alice.execute(Decide([Decision("bank.n", "bank.n.030", ("1.1",))]))
        assert _poll_until(follow_bob, lambda rows: bool(rows), timeout=1.0) == []  # hidden from bob
        bob.execute(Decide([Decision("bank.n", "bank.n.030", ("2.1",))]))
        _poll_until(follow_bob, lambda rows: False, timeout=0.3)
        assert [(r.decided_by, r.tags) for r in bob.decisions.history("bank.n", "bank.n.030")][-2:] == [
            ("alice", ("1.1",)), ("bob", ("2.1",))]  # the pair is complete: bob sees both halves
        # they differ: the instance is in conflict, not bob's answer because his row is the latest
        assert bob.decisions.current("bank.n", "bank.n.030") is None
        assert bob.decisions.status("bank.n", "bank.n.030") == "conflict"
        got = _poll_until(follow_alice, lambda rows: any(r.status == "conflict" for r in rows))
        assert [(r.status, r.note) for r in got] == [("conflict", "adjudicators differ: alice: 1.1; bob: 2.1")]
        assert alice.decisions.status("bank.n", "bank.n.030") == "conflict"
        follow_alice.close()
        follow_bob.close()
