"""History kept: server rows are chained (per login, as the file project's rows are) so that
``project check URL`` names a row an administrator rewrote or deleted with every guard off."""

from __future__ import annotations

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import write_assignments
from tests.team.conftest import url


@pytest.fixture
def decided(cluster, published: str) -> str:
    with PgStore.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead, [("bank.n", f"bank.n.00{i}", "alice", False) for i in (1, 2, 3)])
    with Session.open(url(cluster, "alice", published)) as a:
        for i, tag in ((1, "1"), (2, "2"), (3, "1")):
            a.execute(Decide([Decision("bank.n", f"bank.n.00{i}", (tag,))]))
    return published


def admin(cluster, project: str, statement: str) -> int:  # type: ignore[no-untyped-def]
    """An administrator's change with every guard off (triggers, constraints' owner)."""
    schema = parse_location(url(cluster, "lead", project)).schema
    with cluster.admin("team") as conn:
        conn.execute("SET session_replication_role = replica")  # no trigger fires
        conn.execute(f"SET search_path = {schema}")
        return int(conn.execute(statement).rowcount)


def check(cluster, project: str, capsys) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    code = main(["project", "check", url(cluster, "lead", project)])
    return code, capsys.readouterr().out


def test_a_sound_server_project_checks_sound(cluster, decided: str, capsys) -> None:
    code, out = check(cluster, decided, capsys)
    assert code == 0 and out.rstrip().endswith("sound"), out


def test_an_administrator_s_update_is_named_by_check(cluster, decided: str, capsys) -> None:
    assert admin(cluster, decided, "UPDATE decisions SET tags = '[\"2\"]' WHERE decided_by = 'alice'"
                 " AND instance = 'bank.n.001'") == 1
    code, out = check(cluster, decided, capsys)
    assert code == 1 and "(bank.n bank.n.001): changed after it was written" in out, out
    assert "bank.n.002" not in out and "bank.n.003" not in out


def test_an_administrator_s_delete_is_named_by_check(cluster, decided: str, capsys) -> None:
    admin(cluster, decided, "DELETE FROM decisions WHERE decided_by = 'alice' AND instance = 'bank.n.002'")
    code, out = check(cluster, decided, capsys)
    assert code == 1 and "(bank.n bank.n.003): row(s) 2 of alice's rows before it are missing" in out, out


def test_an_administrator_s_delete_of_the_last_row_is_named_by_check(cluster, decided: str, capsys) -> None:
    admin(cluster, decided, "DELETE FROM decisions WHERE decided_by = 'alice' AND instance = 'bank.n.003'")
    code, out = check(cluster, decided, capsys)
    assert code == 1 and "1 row(s) at the end of alice's rows are missing" in out, out


def test_a_rewrite_of_the_published_history_is_named_by_check(cluster, decided: str, capsys) -> None:
    admin(cluster, decided, "UPDATE decisions SET note = 'x' WHERE id = (SELECT min(id) FROM decisions)")
    code, out = check(cluster, decided, capsys)
    assert code == 1 and "changed after it was written" in out, out


def test_a_trigger_switched_off_by_an_administrator_is_named_by_check(cluster, decided: str, capsys) -> None:
    admin(cluster, decided, "ALTER TABLE decisions DISABLE TRIGGER decisions_append_only")
    code, out = check(cluster, decided, capsys)
    assert code == 1 and "trigger decisions_append_only is switched off" in out, out
