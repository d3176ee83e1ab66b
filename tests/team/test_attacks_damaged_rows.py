"""A row the program cannot use (written before the server's checks, or by an administrator
with them off) never crashes anyone: every command names it (id, instance, why) and leaves it
out, as a file project leaves out a row that fails its checksum; ``project check URL`` names it;
the lead supersedes it by deciding the instance again."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.io.store.pg.location import parse_location
from hieradjudicate.io.store.pg.store import PgStore
from hieradjudicate.io.store.pg.team import write_assignments
from tests.team.conftest import url

POISON = [("'{broken'", "'resolved'", "'2026-01-01T00:00:00Z'", "its tags are not a list of sense ids"),
          ("'[1, 2]'", "'resolved'", "'2026-01-01T00:00:00Z'", "its tags are not a list of sense ids"),
          ("'[]'", "'resolved'", "'2026-01-01T00:00:00Z'", "resolved without a tag"),
          ("'[\"1\"]'", "'approved'", "'2026-01-01T00:00:00Z'", "unknown status"),
          ("'[\"1\"]'", "'resolved'", "'not a date'", "its time is not a timestamp")]


@pytest.fixture(params=POISON, ids=[p[3] for p in POISON])
def poisoned(request, cluster, published: str) -> tuple[str, int, str]:
    tags, status, when, why = request.param
    with PgStore.open(url(cluster, "lead", published)) as lead:
        write_assignments(lead, [("bank.n", "bank.n.003", "alice", True), ("bank.n", "bank.n.003", "bob", True)])
    schema = parse_location(url(cluster, "lead", published)).schema
    with cluster.admin("team") as conn:  # an administrator, every guard off
        conn.execute(f"SET search_path = {schema}")
        for c in ("decisions_tags_check", "decisions_status_check", "decisions_decided_at_check", "decisions_check"):
            conn.execute(f"ALTER TABLE decisions DROP CONSTRAINT IF EXISTS {c}")
        conn.execute("SET session_replication_role = replica")
        rid = conn.execute("INSERT INTO decisions (lexelt, instance, tags, source, status, decided_at, decided_by,"
                           f" team_role) VALUES ('bank.n', 'bank.n.003', {tags}, 'manual', {status}, {when},"
                           " 'alice', 'adjudicator') RETURNING id").fetchone()[0]
    return published, rid, why


def run(capsys, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.mark.parametrize("command", [["project", "status"], ["project", "history"], ["project", "conflicts"],
                                     ["project", "progress", "--resamples", "20"]])
def test_every_command_names_the_damaged_row_and_goes_on(cluster, poisoned, capsys, command) -> None:
    project, rid, why = poisoned
    code, out, err = run(capsys, command[0], command[1], url(cluster, "lead", project), *command[2:])
    assert code == 0, err
    assert "internal error" not in err
    if command[1] in ("status", "history"):  # the commands that open the project say which row
        assert f"#{rid} (bank.n bank.n.003): {why}" in err, err


def test_export_refuses_then_leaves_the_damaged_row_out(cluster, poisoned, capsys, tmp_path: Path) -> None:
    project, rid, why = poisoned
    out_file = tmp_path / "gold.key"
    code, _out, err = run(capsys, "project", "export", url(cluster, "lead", project), "--format", "senseval",
                          "-o", str(out_file))
    assert code == 1 and f"#{rid}" in err
    code, _out, err = run(capsys, "project", "export", url(cluster, "lead", project), "--format", "senseval",
                          "-o", str(out_file), "--without-damaged")
    assert code == 0, err
    schema = parse_location(url(cluster, "lead", project)).schema
    with cluster.admin("team") as conn:  # the instance's answer before the damaged row
        before = conn.execute(f"SELECT tags FROM {schema}.decisions WHERE instance = 'bank.n.003' AND id < %s"
                              " ORDER BY id DESC LIMIT 1", (rid,)).fetchone()
    lines = [ln for ln in out_file.read_text(encoding="utf-8").splitlines() if " bank.n.003 " in ln + " "]
    import json

    assert lines == ([] if before is None else [f"bank.n bank.n.003 {' '.join(json.loads(before[0]))}"])


def test_check_names_the_damaged_row(cluster, poisoned, capsys) -> None:
    project, rid, why = poisoned
    code, out, _err = run(capsys, "project", "check", url(cluster, "lead", project))
    assert code == 1 and f"#{rid} (bank.n bank.n.003): {why}" in out, out
    assert f"#{rid} (bank.n bank.n.003): not chained" in out, out  # added with the checks off


def test_the_lead_supersedes_the_damaged_row_by_deciding_again(cluster, poisoned) -> None:
    project, rid, _why = poisoned
    with Session.open(url(cluster, "lead", project)) as s:
        assert s.decisions.current("bank.n", "bank.n.003") is None or s.decisions.current(
            "bank.n", "bank.n.003").id != rid
        s.execute(Decide([Decision("bank.n", "bank.n.003", ("2",))]))
        assert s.decisions.current("bank.n", "bank.n.003").tags == ("2",)


def test_pull_leaves_the_damaged_row_out_of_the_file(cluster, poisoned, tmp_path: Path, capsys) -> None:
    project, rid, _why = poisoned
    target = tmp_path / "copy.hadj"
    code, _out, err = run(capsys, "project", "pull", url(cluster, "lead", project), str(target))
    assert code == 0, err
    code, out, _err = run(capsys, "project", "check", str(target))
    assert code == 0, out
    with Session.open(target, read_only=True) as s:
        assert all(r.id != rid for r in s.store.iter_history())
