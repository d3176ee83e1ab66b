"""A throwaway PostgreSQL cluster for the team tests (session scope), logins, a published demo.

Without the server binaries or psycopg every team test skips and says why.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hieradjudicate.app.loading.load import AnnotationSpec
from tests.conftest import DEMO

ANNOTATORS = ("annotator_ann.key", "annotator_ben.key", "annotator_cho.key")
PEOPLE = ("lead", "alice", "bob", "carol", "vic", "mallory")
ADMIN = "hadj_admin"  # the cluster's superuser (local_cluster.SUPERUSER)
_names = itertools.count(1)


@pytest.fixture(scope="session")
def cluster() -> Iterator[object]:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg 3 is not installed (pip install 'hieradjudicate[team]')")
    from hieradjudicate.io.store.pg.local_cluster import LocalCluster, find_binaries

    bindir, why = find_binaries()
    if bindir is None:
        pytest.skip(why)
    c = LocalCluster.start(passwords=True)
    saved = os.environ.get("PGPASSFILE")
    try:
        # every login has a password, found by libpq in a pgpass file as it would be in ~/.pgpass
        pgpass = c.folder / "pgpass"
        pgpass.write_text("".join(f"127.0.0.1:{c.port}:*:{name}:{password(name)}\n"
                                  for name in (*PEOPLE, ADMIN)), encoding="utf-8")
        pgpass.chmod(0o600)
        os.environ["PGPASSFILE"] = str(pgpass)
        with c.admin() as conn:
            conn.execute(f"ALTER ROLE {ADMIN} PASSWORD '{password(ADMIN)}'")
            for name in PEOPLE:  # plain logins: the lead has no CREATEROLE
                conn.execute(f"CREATE ROLE \"{name}\" LOGIN PASSWORD '{password(name)}'")
            conn.execute("CREATE DATABASE team")
        set_up(c, "team")
        yield c
    finally:
        if saved is None:
            os.environ.pop("PGPASSFILE", None)
        else:
            os.environ["PGPASSFILE"] = saved
        c.stop()


def set_up(c: object, db: str, leads: tuple[str, ...] | list[str] = ("lead",)) -> None:
    """The administrator's one command for a database: these leads may publish there."""
    from hieradjudicate.io.store.pg.setup import setup

    setup(c.url(ADMIN, db), list(leads))  # type: ignore[attr-defined]


def new_login(c: object, name: str) -> None:
    """A plain login made by the administrator, its password in the pgpass file."""
    with c.admin() as conn:  # type: ignore[attr-defined]
        conn.execute(f'CREATE ROLE "{name}" LOGIN PASSWORD \'{password(name)}\'')
    with open(os.environ["PGPASSFILE"], "a", encoding="utf-8") as fh:
        fh.write(f"127.0.0.1:{c.port}:*:{name}:{password(name)}\n")  # type: ignore[attr-defined]


def new_database(c: object, db: str, leads: list[str]) -> None:
    """A database set up for team projects with these leads."""
    from hieradjudicate.io.store.pg.setup import setup

    with c.admin() as conn:  # type: ignore[attr-defined]
        conn.execute(f'CREATE DATABASE "{db}"')
    setup(c.url(ADMIN, db), leads)  # type: ignore[attr-defined]


def password(login: str) -> str:
    return f"pw-{login}-Zq9"


@pytest.fixture(scope="session")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hieradjudicate.app.session.session import Session

    path = tmp_path_factory.mktemp("team") / "demo.hadj"
    specs = [AnnotationSpec(str(DEMO / n)) for n in ANNOTATORS]
    with Session.create(path, [str(DEMO / "inventory.txt")], specs, [str(DEMO / "contexts.tsv")]) as s:
        s.accept_agreed()
    return path


@pytest.fixture
def queue_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HIERADJ_QUEUE_DIR", str(tmp_path / "queue"))
    return tmp_path / "queue"


def url(cluster: object, user: str, project: str) -> str:
    return cluster.url(user, "team", project)  # type: ignore[attr-defined]


@pytest.fixture
def published(cluster: object, demo_file: Path, queue_dir: Path) -> str:
    """A fresh project name published from the demo file by the lead; returns its name."""
    from hieradjudicate.app.team import publish_project as publish
    from hieradjudicate.io.store.pg.transfer import grant

    name = f"demo{next(_names)}_{os.getpid()}"
    publish(demo_file, url(cluster, "lead", name))
    grant(url(cluster, "lead", name), {"adjudicator": ["alice", "bob", "carol"], "viewer": ["vic"]})
    return name


@pytest.fixture(scope="session")
def other_lead_project(cluster: object, demo_file: Path) -> str:
    """A project of the same database led by another lead (lead2), with carol as adjudicator."""
    from hieradjudicate.app.team import publish_project as publish
    from hieradjudicate.io.store.pg.transfer import grant

    new_login(cluster, "lead2")
    set_up(cluster, "team", ["lead2"])
    name = f"theirs_{os.getpid()}"
    publish(demo_file, url(cluster, "lead2", name))
    grant(url(cluster, "lead2", name), {"adjudicator": ["carol"]})
    return name
