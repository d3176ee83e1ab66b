"""Notifications are hints: any login of the database can send one on a project's channel with
any payload, and a window then reads only ids it has not read, in bounded chunks."""

from __future__ import annotations

import time

import psycopg
from psycopg import sql

from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.follow import ServerFollower
from hieradjudicate.app.session.session import Session
from hieradjudicate.io.store.pg.store import PgStore
from tests.team.conftest import url


def _count_rows_read(follower: ServerFollower) -> list[int]:
    """[queries for rows, rows read] of the follower's store from now on."""
    counts, rows_in = [0, 0], follower.store.rows_in

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        rows = rows_in(*args, **kwargs)
        counts[0] += 1
        counts[1] += len(rows)
        return rows

    follower.store.rows_in = counted  # type: ignore[method-assign]
    return counts


def _poll_until(follower: ServerFollower, want, timeout: float = 10.0) -> list:  # type: ignore[no-untyped-def]
    got: list = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got += follower.poll()
        if want(got):
            return got
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s: {got}")


def _decide(cluster, project: str, instances: list[str], note: str) -> None:  # type: ignore[no-untyped-def]
    with PgStore.open(url(cluster, "lead", project)) as lead:
        lead.append_decisions([Decision("bank.n", i, ("4",), note=note, decided_by="lead",
                                        decided_at="2026-01-01T00:00:00.000Z") for i in instances])


def test_forged_notifications_read_nothing_old(cluster, published: str) -> None:
    with Session.open(url(cluster, "vic", published)) as viewer:
        follower = ServerFollower(viewer)
        history = viewer.store.count_decisions()
        assert history > 100
        _decide(cluster, published, ["bank.n.040"], "first")
        _poll_until(follower, lambda rows: any(r.note == "first" for r in rows))
        counts = _count_rows_read(follower)
        channel = follower.store.location.schema
        for login in ("mallory", "alice"):  # no role in the project; an adjudicator of it
            with psycopg.connect(cluster.url(login, "team"), autocommit=True) as conn:
                for payload in ("1 9000000000000000000", f"1 {2**62}", "0 0", "-5 3", "7 2",
                                "not numbers", ""):
                    conn.execute(sql.SQL("NOTIFY {}, {}").format(sql.Identifier(channel), sql.Literal(payload)))
        _decide(cluster, published, ["bank.n.041"], "fence")  # its notification comes after theirs
        got = _poll_until(follower, lambda rows: any(r.note == "fence" for r in rows))
        assert [r.note for r in got] == ["fence"]
        assert counts[1] == 1, f"{counts[1]} rows read for one new row ({history} in the history)"
        follower.close()


def test_a_notification_naming_only_rows_read_costs_no_query(cluster, published: str) -> None:
    with Session.open(url(cluster, "vic", published)) as viewer:
        follower = ServerFollower(viewer)
        _decide(cluster, published, ["bank.n.042"], "seen")
        _poll_until(follower, lambda rows: any(r.note == "seen" for r in rows))
        _poll_until(follower, lambda rows: not getattr(getattr(follower, "horizon", None), "settling", False))
        top = max(r.id for r in viewer.store.iter_history())
        counts = _count_rows_read(follower)
        with psycopg.connect(cluster.url("mallory", "team"), autocommit=True) as conn:
            for payload in ("1 1", f"1 {top}", f"{top} {top}", "garbage"):
                conn.execute(sql.SQL("NOTIFY {}, {}").format(sql.Identifier(follower.store.location.schema),
                                                             sql.Literal(payload)))
        _poll_until(follower, lambda rows: getattr(follower, "hints", 0) >= 4 or counts[0] > 0)
        assert counts == [0, 0]
        follower.close()


def test_a_catch_up_is_read_in_bounded_chunks(cluster, published: str) -> None:
    with Session.open(url(cluster, "vic", published)) as viewer:
        follower = ServerFollower(viewer)
        follower.CHUNK = 5
        counts = _count_rows_read(follower)
        per_poll: list[int] = []
        _decide(cluster, published, [f"bank.n.{k:03d}" for k in range(50, 62)], "batch")
        deadline = time.monotonic() + 10
        while sum(per_poll) < 12 and time.monotonic() < deadline:
            before = counts[1]
            follower.poll()
            if counts[1] > before:
                per_poll.append(counts[1] - before)
            time.sleep(0.02)
        assert per_poll == [5, 5, 2]
        assert [viewer.decisions.current("bank.n", f"bank.n.{k:03d}").note for k in range(50, 62)] == ["batch"] * 12
        follower.close()


def test_a_number_too_large_for_an_id_does_not_take_the_window_offline(cluster, published: str) -> None:
    with Session.open(url(cluster, "vic", published)) as viewer:
        follower = ServerFollower(viewer)
        with psycopg.connect(cluster.url("mallory", "team"), autocommit=True) as conn:
            conn.execute(sql.SQL("NOTIFY {}, '1 99999999999999999999999'").format(
                sql.Identifier(follower.store.location.schema)))
        _decide(cluster, published, ["bank.n.043"], "after")
        _poll_until(follower, lambda rows: any(r.note == "after" for r in rows) or follower.offline)
        assert not follower.offline
        follower.close()
