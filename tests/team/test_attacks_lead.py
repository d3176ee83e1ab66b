"""A project's lead, with psql and their own login, cannot take the server: no role, password or
server privilege of anyone else, no switch that turns the project's rules off, no rewrite of
history.  One test per attack, each through plain SQL (psycopg) as the lead would type it."""

from __future__ import annotations

import psycopg
import pytest
from psycopg import sql as q

from hieradjudicate.io.store.pg.location import parse_location
from tests.team.conftest import url

INSERT = ("INSERT INTO decisions (lexelt, instance, team_role, tags, source, status, decided_at)"
          " VALUES ('bank.n', 'bank.n.001', 'lead', '[\"1\"]', 'manual', 'resolved', '2026-01-01T00:00:00.000Z')")


def lead_sql(cluster, project: str) -> psycopg.Connection:  # type: ignore[no-untyped-def]
    conn = psycopg.connect(cluster.url("lead", "team"), autocommit=True)
    conn.execute(f"SET search_path = {parse_location(url(cluster, 'lead', project)).schema}")
    return conn


def test_the_lead_cannot_set_another_login_s_password(cluster, published: str) -> None:
    with lead_sql(cluster, published) as lead, pytest.raises(psycopg.errors.InsufficientPrivilege):
        lead.execute("ALTER ROLE carol PASSWORD 'taken'")


@pytest.mark.parametrize("role", ["pg_execute_server_program", "pg_read_server_files",
                                  "pg_write_server_files"])
def test_the_lead_cannot_grant_himself_a_server_privilege(cluster, published: str, role: str) -> None:
    with lead_sql(cluster, published) as lead, pytest.raises(psycopg.errors.InsufficientPrivilege):
        lead.execute(q.SQL("GRANT {} TO lead").format(q.Identifier(role)))


def test_the_lead_cannot_create_a_role(cluster, published: str) -> None:
    with lead_sql(cluster, published) as lead, pytest.raises(psycopg.errors.InsufficientPrivilege):
        lead.execute("CREATE ROLE sidekick LOGIN PASSWORD 'x'")


def test_the_lead_cannot_join_another_lead_s_project(cluster, published: str, other_lead_project: str) -> None:
    theirs = parse_location(url(cluster, "lead2", other_lead_project))
    with lead_sql(cluster, published) as lead:
        for kind in ("lead", "adjudicator", "viewer"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                lead.execute(q.SQL("GRANT {} TO lead").format(q.Identifier(theirs.role(kind))))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            lead.execute(f"SELECT count(*) FROM {theirs.schema}.decisions")


def test_the_lead_cannot_switch_off_a_trigger(cluster, published: str) -> None:
    with lead_sql(cluster, published) as lead, pytest.raises(psycopg.errors.InsufficientPrivilege):
        lead.execute("ALTER TABLE decisions DISABLE TRIGGER decisions_append_only")


def test_the_lead_cannot_switch_off_forced_row_level_security(cluster, published: str) -> None:
    with lead_sql(cluster, published) as lead, pytest.raises(psycopg.errors.InsufficientPrivilege):
        lead.execute("ALTER TABLE decisions NO FORCE ROW LEVEL SECURITY")


@pytest.mark.parametrize("statement", ["UPDATE decisions SET note = 'rewritten'",
                                       "DELETE FROM decisions", "TRUNCATE decisions CASCADE"])
def test_the_lead_cannot_rewrite_history_even_after_trying_to_switch_its_guards_off(
        cluster, published: str, statement: str) -> None:
    with lead_sql(cluster, published) as lead:
        lead.execute(INSERT)
        for off in ("ALTER TABLE decisions DISABLE TRIGGER USER", "ALTER TABLE decisions NO FORCE ROW LEVEL SECURITY",
                    "ALTER TABLE decisions DISABLE ROW LEVEL SECURITY"):
            try:
                lead.execute(off)
            except psycopg.errors.InsufficientPrivilege:
                pass
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            lead.execute(statement)
        assert lead.execute("SELECT count(*) FROM decisions WHERE note = 'rewritten'").fetchone()[0] == 0


def test_the_lead_cannot_drop_or_alter_the_project_s_tables(cluster, published: str) -> None:
    with lead_sql(cluster, published) as lead:
        for statement in ("DROP TABLE decisions CASCADE", "ALTER TABLE decisions DROP CONSTRAINT decisions_tags_check",
                          "ALTER TABLE decisions OWNER TO lead", "DROP FUNCTION check_decision() CASCADE"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                lead.execute(statement)


def test_the_lead_manages_the_team_without_createrole_and_only_his_own(cluster, published: str,
                                                                        other_lead_project: str, capsys) -> None:
    from hieradjudicate.cli.entry import main

    with psycopg.connect(cluster.url("lead", "team")) as conn:  # a plain login
        assert conn.execute("SELECT rolcreaterole, rolsuper FROM pg_roles WHERE rolname = 'lead'").fetchone() == (
            False, False)
    assert main(["project", "team", url(cluster, "lead", published), "--viewers", "mallory"]) == 0
    assert "viewer: mallory, vic" in capsys.readouterr().out
    assert main(["project", "team", url(cluster, "lead", published), "--viewers", "mallory", "--remove"]) == 0
    assert "viewer: vic" in capsys.readouterr().out
    with psycopg.connect(cluster.url("lead", "team"), autocommit=True) as lead:  # not another lead's project
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only a lead of project"):
            lead.execute("SELECT hieradjudicate.set_member(%s, 'lead', 'lead', true)", (other_lead_project,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only a lead of project"):
            lead.execute("SELECT hieradjudicate.set_member(%s, 'adjudicator', 'carol', false)",
                         (other_lead_project,))


def test_a_lead_cannot_plant_rows_in_a_person_s_name_before_the_rules_are_on(cluster) -> None:
    name = "planted"
    with psycopg.connect(cluster.url("lead", "team")) as lead:  # publishing by hand, one step at a time
        lead.execute("SELECT hieradjudicate.create_project(%s)", (name,))
        lead.execute(f"SET search_path = hadj_{name}")
        lead.execute("INSERT INTO senses VALUES ('bank.n', '1')")
        lead.execute("INSERT INTO decisions (lexelt, instance, tags, source, status, decided_at, decided_by,"
                     " team_role) VALUES ('bank.n', 'bank.n.001', '[\"1\"]', 'manual', 'resolved',"
                     " '2026-01-01T00:00:00Z', 'alice', 'adjudicator')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="history of a file"):
            lead.execute("SELECT hieradjudicate.seal_project(%s)", (name,))
