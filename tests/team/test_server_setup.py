"""``hieradjudicate server setup ADMIN_URL --leads A,B``: the administrator's one command per
database; a lead is then a plain login that can publish and manage the team."""

from __future__ import annotations

import pytest

from hieradjudicate.cli.entry import main
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.app.team import publish_project as publish
from tests.team.conftest import ADMIN, new_login


def run(capsys, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


def test_setup_refuses_a_lead_with_createrole_and_says_why(cluster, capsys) -> None:
    new_login(cluster, "boss")
    with cluster.admin() as conn:
        conn.execute('ALTER ROLE "boss" CREATEROLE')
    code, _out, err = run(capsys, "server", "setup", cluster.url(ADMIN, "team"), "--leads", "boss")
    assert code == 1 and "boss has CREATEROLE" in err and "NOCREATEROLE" in err and "Traceback" not in err


def test_setup_refuses_a_lead_who_owns_the_database(cluster, capsys) -> None:
    new_login(cluster, "owner1")
    with cluster.admin() as conn:
        conn.execute('CREATE DATABASE owned OWNER "owner1"')
    code, _out, err = run(capsys, "server", "setup", cluster.url(ADMIN, "owned"), "--leads", "owner1")
    assert code == 1 and "owns the database owned" in err


def test_setup_by_a_plain_login_is_refused(cluster, capsys) -> None:
    code, _out, err = run(capsys, "server", "setup", cluster.url("lead", "team"), "--leads", "alice")
    assert code == 1 and "not one" in err


def test_setup_names_a_missing_login(cluster, capsys) -> None:
    code, _out, err = run(capsys, "server", "setup", cluster.url(ADMIN, "team"), "--leads", "nobody")
    assert code == 1 and "no login 'nobody'" in err


def test_setup_again_adds_a_lead_who_may_then_publish(cluster, demo_file, capsys) -> None:
    with pytest.raises(ProjectError, match="mallory is not a lead of this database"):
        publish(demo_file, cluster.url("mallory", "team", "mine"))
    code, out, err = run(capsys, "server", "setup", cluster.url(ADMIN, "team"), "--leads", "mallory")
    assert code == 0 and "mallory may publish projects in team" in out, err
    publish(demo_file, cluster.url("mallory", "team", "mine"))


def test_publishing_in_a_database_never_set_up_says_who_runs_what(cluster, demo_file) -> None:
    with cluster.admin() as conn:
        conn.execute("CREATE DATABASE bare")
    with pytest.raises(ProjectError, match="not set up for team projects.*server setup"):
        publish(demo_file, cluster.url("lead", "bare", "demo"))
