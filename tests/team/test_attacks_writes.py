"""Every row a person writes is one the program would write: the server chooses ids, commit
times and who; a batch is the writer's own; tags, status, time and note are the program's kinds
of value.  One test per attack, through plain SQL (psycopg) with the adjudicator's or the lead's
own login; each row would be accepted by a server without the checks."""

from __future__ import annotations

import psycopg
import pytest

from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import write_assignments
from hieradjudicate.io.store.records import NOTE_MAX
from tests.team.conftest import url

COLS = "lexelt, instance, team_role, tags, source, status, decided_at, note"
GOOD = {"lexelt": "bank.n", "instance": "bank.n.001", "team_role": "adjudicator", "tags": '["1"]',
        "source": "manual", "status": "resolved", "decided_at": "2026-01-01T00:00:00.000Z", "note": ""}


def login_sql(cluster, login: str, project: str) -> psycopg.Connection:  # type: ignore[no-untyped-def]
    conn = psycopg.connect(cluster.url(login, "team"), autocommit=True)
    conn.execute(f"SET search_path = {parse_location(url(cluster, login, project)).schema}")
    return conn


def insert(conn: psycopg.Connection, **changes: object) -> None:
    row = {**GOOD, **changes}
    cols = ", ".join(row)
    conn.execute(f"INSERT INTO decisions ({cols}) VALUES ({', '.join(['%s'] * len(row))})", list(row.values()))


@pytest.fixture
def assigned(cluster, published: str) -> str:
    with PgStore.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead, [("bank.n", "bank.n.001", "alice", False)])
    return published


def test_the_plain_row_is_accepted(cluster, assigned: str) -> None:  # the attacks below differ by one value
    with login_sql(cluster, "alice", assigned) as alice:
        insert(alice)
        assert alice.execute("SELECT count(*) FROM decisions WHERE decided_by = 'alice'").fetchone()[0] == 1


def test_an_adjudicator_cannot_choose_the_row_id(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.InsufficientPrivilege):
        insert(alice, id=9_000_000_000_000_000_000)


def test_the_lead_cannot_choose_the_row_id(cluster, assigned: str) -> None:
    with login_sql(cluster, "lead", assigned) as lead, pytest.raises(psycopg.errors.InsufficientPrivilege):
        insert(lead, id=9_000_000_000_000_000_000, team_role="lead")


def test_an_adjudicator_cannot_backdate_the_commit_time(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.InsufficientPrivilege):
        insert(alice, committed_at="2020-01-01T00:00:00Z")


def test_an_adjudicator_cannot_file_a_decision_in_another_s_batch(cluster, assigned: str) -> None:
    with login_sql(cluster, "lead", assigned) as lead:
        batch = lead.execute("INSERT INTO batches (label, kind, created_at) VALUES ('lead', 'do',"
                             " '2026-01-01T00:00:00.000Z') RETURNING id").fetchone()[0]
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.InsufficientPrivilege):
        insert(alice, batch=batch)


def test_an_adjudicator_cannot_write_a_batch_in_another_s_name(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.InsufficientPrivilege):
        alice.execute("INSERT INTO batches (label, kind, created_at, created_by) VALUES ('x', 'do',"
                      " '2026-01-01T00:00:00.000Z', 'lead')")


def test_an_adjudicator_cannot_write_the_chain_columns(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.InsufficientPrivilege):
        insert(alice, seq=1, link="0" * 64)


@pytest.mark.parametrize("tags", ["{broken", "[1, 2]", '["no-such-sense"]', '[""]', '"1"', '["1"] ', "null"])
def test_tags_that_are_not_a_list_of_the_project_s_senses_are_refused(cluster, assigned: str, tags: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.IntegrityError):
        insert(alice, tags=tags)


def test_a_resolved_row_without_a_tag_is_refused(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.IntegrityError):
        insert(alice, tags="[]")


def test_an_unknown_status_is_refused(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.IntegrityError):
        insert(alice, status="approved")


@pytest.mark.parametrize("when", ["not a date", "2026-13-45T00:00:00Z", ""])
def test_a_time_that_is_not_a_timestamp_is_refused(cluster, assigned: str, when: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.IntegrityError):
        insert(alice, decided_at=when)


def test_a_note_above_the_program_s_limit_is_refused(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice:
        insert(alice, note="n" * NOTE_MAX)  # at the limit: kept
        with pytest.raises(psycopg.errors.IntegrityError):
            insert(alice, note="n" * (NOTE_MAX + 1))


def test_a_note_with_a_control_character_is_refused(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.IntegrityError):
        insert(alice, note="bell \x07")


def test_an_adjudicator_cannot_pose_as_the_published_file_history(cluster, assigned: str) -> None:
    with login_sql(cluster, "alice", assigned) as alice, pytest.raises(psycopg.errors.InsufficientPrivilege):
        insert(alice, team_role="file")
