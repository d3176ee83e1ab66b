"""Project URLs: what is accepted, what is refused with one line, and that no secret is shown."""

from __future__ import annotations

import pytest

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.locations import is_server_location
from hieradjudicate.io.store.pg.location import parse_location


def test_a_url_names_login_server_database_and_project() -> None:
    loc = parse_location("postgresql://alice@db.example.org:5433/wsd?project=senseval3&sslmode=verify-full")
    assert (loc.user, loc.host, loc.port, loc.dbname, loc.project) == (
        "alice", "db.example.org", 5433, "wsd", "senseval3")
    assert loc.conninfo() == "postgresql://alice@db.example.org:5433/wsd?sslmode=verify-full"
    assert str(loc).endswith("?sslmode=verify-full&project=senseval3")
    import hashlib

    tag = hashlib.sha256(b"wsd").hexdigest()[:8]  # roles are cluster-wide: the database is in the name
    assert loc.schema == "hadj_senseval3" and loc.role("viewer") == f"hadj_senseval3_viewer_{tag}"


def test_role_names_stay_within_63_bytes_and_apart_per_database_and_project() -> None:
    long = "p" + "x" * 39
    names = {parse_location(f"postgresql://a@h/{db}?project={p}").role(k)
             for db in ("wsd", "wsd2", "a_very_long_database_name_" * 3) for p in ("demo", long, long[:-1] + "y")
             for k in ("lead", "adjudicator", "viewer")}
    assert len(names) == 3 * 3 * 3 and max(len(n.encode()) for n in names) <= 63


def test_paths_are_not_server_locations() -> None:
    assert is_server_location("postgresql://a@h/db?project=p")
    assert is_server_location("postgres://a@h/db?project=p")
    assert not is_server_location("project.hadj")
    assert not is_server_location("/tmp/postgresql:/x.hadj")


@pytest.mark.parametrize("url, expected", [
    ("postgresql://alice:s3cret@h/db?project=p", "password does not belong"),
    ("postgresql://alice@h/db?project=p&password=s3cret", "password does not belong"),
    ("postgresql://alice@h/db", "names no project"),
    ("postgresql://alice@h/?project=p", "names no database"),
    ("postgresql://alice@h/db?project=Bad-Name", "must start with a letter"),
    ("postgresql://alice@h/db?project=p;drop", "must start with a letter"),
    ("postgresql://alice@h/db?project=p&colour=red", "unknown URL parameter 'colour'"),
    ("postgresql://alice@h:99999/db?project=p", "not a valid server URL"),
])
def test_mistakes_are_one_line_and_never_show_the_password(url: str, expected: str) -> None:
    with pytest.raises(ProjectError) as info:
        parse_location(url)
    text = str(info.value)
    assert expected in text and "\n" not in text
    assert "s3cret" not in text


def test_without_psycopg_a_server_project_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from hieradjudicate.io.store.locations import open_store

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the team extra were not installed
    with pytest.raises(ProjectError, match=r"pip install 'hieradjudicate\[team\]'"):
        open_store("postgresql://alice@h/db?project=p")


def test_the_url_s_own_libpq_settings_win(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    import psycopg

    from hieradjudicate.io.store.pg import store

    seen: dict = {}

    def fake_connect(conninfo: str, **kwargs: object) -> object:
        seen.update(kwargs, conninfo=conninfo)
        raise psycopg.OperationalError("no server here")

    monkeypatch.setattr(psycopg, "connect", fake_connect)
    loc = parse_location("postgresql://a@h/db?project=p&connect_timeout=30&tcp_user_timeout=100")
    with pytest.raises(ProjectError, match="cannot connect to the server"):
        store.connect(loc)
    assert "connect_timeout=30" in seen["conninfo"] and "connect_timeout" not in seen
    assert "tcp_user_timeout" not in seen and seen["keepalives_idle"] == 5
