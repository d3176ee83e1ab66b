"""Rights stay in their database: a project of the same name in a second database of the same
cluster has a team of its own (roles are cluster-wide; their names carry the database)."""

from __future__ import annotations

import os

import psycopg
import pytest

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.app.team import publish_project as publish
from hieradjudicate.io.store.pg.transfer import grant
from tests.team.conftest import new_database


def test_a_viewer_of_demo_in_one_database_cannot_read_demo_in_another(cluster, demo_file, queue_dir) -> None:
    name = f"same_{os.getpid()}"
    new_database(cluster, "team_b", ["lead"])
    first, second = cluster.url("lead", "team", name), cluster.url("lead", "team_b", name)
    publish(demo_file, first)
    publish(demo_file, second)
    grant(first, {"viewer": ["vic"]})  # vic views the one in "team" only
    with PgStore.open(cluster.url("vic", "team", name)) as store:
        assert store.count_decisions() > 0
    with pytest.raises(ProjectError, match="no role"):
        PgStore.open(cluster.url("vic", "team_b", name))
    with psycopg.connect(cluster.url("vic", "team_b"), autocommit=True) as vic:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            vic.execute(f"SELECT count(*) FROM {parse_location(second).schema}.decisions")


def test_a_lead_of_one_database_cannot_publish_in_another_not_set_up_for_him(cluster, demo_file) -> None:
    new_database(cluster, "team_c", [])  # set up, with no lead named
    with pytest.raises(ProjectError, match="not a lead of this database"):
        publish(demo_file, cluster.url("lead", "team_c", "demo"))
