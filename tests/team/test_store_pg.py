"""The server store against a real throwaway PostgreSQL cluster: the same decisions, history
and checks as the file, every project command on a URL, publish and pull."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.project_store import Store
from tests.team.conftest import url


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _fields(rows) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(r.id, r.lexelt, r.instance, r.tags, r.source, r.status, r.note, r.decided_by,
             r.decided_at, r.batch, r.basis) for r in rows]


def test_published_project_opens_with_the_same_corpus_decisions_and_history(
        cluster, demo_file: Path, published: str) -> None:
    with Session.open(demo_file, read_only=True) as f, Session.open(url(cluster, "lead", published)) as s:
        assert s.from_cache and s.corpus.n == f.corpus.n
        assert [x.name for x in s.corpus.sets] == [x.name for x in f.corpus.sets]
        assert _fields(s.store.iter_history()) == _fields(f.store.iter_history())
        assert _fields(s.decisions) == _fields(f.decisions)
        assert s.store.batches() == f.store.batches()
        assert s.path.name == published and "lead@" in str(s.path)


def test_pull_brings_back_every_row_and_a_sound_file(cluster, demo_file: Path, published: str,
                                                      tmp_path: Path) -> None:
    u = url(cluster, "lead", published)
    with Session.open(u) as s:
        key = s.instances()[5]
        s.execute(Decide([Decision(*key, ("2",), status="flagged", note="pulled")]))
        server_rows = _fields(s.store.iter_history())
    code, out, err = cli("project", "pull", u, str(tmp_path / "back.hadj"))
    assert code == 0, err
    with Store.open(tmp_path / "back.hadj", read_only=True) as back:
        assert _fields(back.iter_history()) == server_rows
        assert back.bad_ids == ()
    code, out, _ = cli("project", "check", str(tmp_path / "back.hadj"))
    assert code == 0 and "sound" in out


def test_every_project_command_takes_the_url(cluster, published: str, tmp_path: Path) -> None:
    u = url(cluster, "lead", published)
    code, out, err = cli("project", "status", u, "--format", "json")
    assert code == 0, err
    status = json.loads(out)
    assert status["instances"] == 400 and status["project"].endswith(f"project={published}")
    code, out, err = cli("project", "decide", u, "bank.n", "bank.n.001", "1.1", "--note",
                         "it's; DROP TABLE decisions; --")
    assert code == 0, err
    assert out.startswith("saved #")
    code, out, err = cli("project", "history", u, "--format", "json")
    last = json.loads(out)[-1]
    assert (last["instance"], last["decided_by"], last["note"]) == (
        "bank.n.001", "lead", "it's; DROP TABLE decisions; --")
    csv_in = tmp_path / "d.csv"
    csv_in.write_text("lexelt,instance,tags,note\nbank.n,bank.n.002,2,\"a \"\"quoted\"\" note\"\n",
                      encoding="utf-8")
    code, out, err = cli("project", "import-decisions", u, str(csv_in))
    assert code == 0 and "imported 1" in out, err
    code, out, err = cli("project", "resolve-agreed", u)
    assert code == 0, err
    code, out, err = cli("project", "export", u, "--format", "csv", "-o", str(tmp_path / "gold.csv"))
    assert code == 0, err
    assert "bank.n,bank.n.002," in (tmp_path / "gold.csv").read_text(encoding="utf-8")
    code, out, err = cli("competence", u)
    assert code == 0 and "annotator_ann" in out, err
    code, out, err = cli("report", u, "-o", str(tmp_path / "r.html"), "--resamples", "0")
    assert code == 0, err
    assert f"Agreement report: {published}<" in (tmp_path / "r.html").read_text(encoding="utf-8")
    code, out, err = cli("project", "check", u)  # rights, usable rows, the chain: as the server has them
    assert code == 0 and out.rstrip().endswith("sound"), out + err
    code, out, err = cli("project", "repair", u)  # a server keeps its own pages: nothing to repair
    assert code == 1 and "server" in err and "Traceback" not in err


def test_sslmode_is_honoured(cluster, published: str) -> None:
    # the throwaway server has no TLS: sslmode=require must be refused by libpq, not ignored
    with pytest.raises(ProjectError) as info:
        Session.open(url(cluster, "lead", published) + "&sslmode=require")
    assert "SSL" in str(info.value) and "cannot connect" in str(info.value)


def test_a_missing_project_and_a_stranger_get_one_line(cluster, published: str) -> None:
    code, _, err = cli("project", "status", url(cluster, "lead", "nosuch"))
    assert code == 1 and "there is no project 'nosuch'" in err
    code, _, err = cli("project", "status", url(cluster, "mallory", published))
    assert code == 1 and "mallory has no role in project" in err


def test_publishing_twice_is_refused_and_changes_nothing(cluster, demo_file: Path, published: str) -> None:
    code, _, err = cli("project", "publish", str(demo_file), url(cluster, "lead", published))
    assert code == 1 and "exists already" in err


def test_project_new_on_a_url_builds_then_publishes(cluster, tmp_path: Path, queue_dir: Path) -> None:
    from tests.conftest import DEMO

    u = url(cluster, "lead", f"fresh{os.getpid()}")
    code, out, err = cli("project", "new", u, "--inventory", str(DEMO / "inventory.txt"),
                         "--annotations", str(DEMO / "annotator_ann.key"))
    assert code == 0, err
    assert out.startswith(f"created {u}: 400 instances, 8 lexelts")
    code, out, err = cli("project", "status", u, "--format", "json")
    assert json.loads(out)["status"]["unresolved"] == 400


def test_the_window_command_takes_a_url(cluster, published: str) -> None:
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "hieradjudicate", url(cluster, "vic", published)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)
    # no display here: the window says so and prints the server project's status instead
    assert done.returncode == 0, done.stderr
    assert "no display" in done.stderr and f"project={published}: 400 instances" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "hieradjudicate", "postgresql://vic:pw@h/db?project=p"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)
    assert bad.returncode == 1 and "password does not belong" in bad.stderr and "pw@" not in bad.stderr


def test_the_password_comes_from_libpq_s_places_and_is_never_shown(cluster, published: str,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    from tests.team.conftest import password

    u = url(cluster, "alice", published)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))  # no ~/.pgpass entry
    monkeypatch.delenv("PGPASSWORD", raising=False)
    code, _, err = cli("project", "status", u)
    assert code == 1 and "cannot connect to the server" in err and "password" in err
    monkeypatch.setenv("PGPASSWORD", "wrong")
    code, _, err = cli("project", "status", u)
    assert code == 1 and "password authentication failed" in err and "wrong" not in err
    monkeypatch.setenv("PGPASSWORD", password("alice"))
    code, out, err = cli("project", "status", u)
    assert code == 0, err
    with Session.open(u, read_only=True) as s:  # nothing of it in the project or its location
        everything = json.dumps([s.store.meta(), s.store.settings(), str(s.path)])
    assert password("alice") not in everything and password("lead") not in everything


def test_the_lead_reimports_a_changed_file_on_the_server(cluster, published: str, tmp_path: Path) -> None:
    from tests.conftest import DEMO

    changed = tmp_path / "annotator_ann.key"
    lines = (DEMO / "annotator_ann.key").read_text(encoding="utf-8").splitlines()
    first = lines[0].split()
    lines[0] = " ".join(first[:2] + ["3"])  # ann changes her answer on the first instance
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = cli("project", "reimport", url(cluster, "alice", published), "annotator_ann", str(changed))
    assert code == 1 and "alice may not" in err  # an adjudicator does not re-import
    code, out, err = cli("project", "reimport", url(cluster, "lead", published), "annotator_ann", str(changed))
    assert code == 0, err
    assert out.startswith("re-imported annotator_ann")
    with Session.open(url(cluster, "vic", published)) as s:
        ann = next(x for x in s.corpus.sets if x.name == "annotator_ann")
        assert len([f for f in s.store.files("annotations")]) == 3
        assert ann.n == 400
