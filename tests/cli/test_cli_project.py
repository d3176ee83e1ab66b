"""``hieradjudicate project ...`` end to end, in subprocesses, on the demo files."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hieradjudicate.app.loading.load import AnnotationSpec, load
from tests.conftest import DEMO, ROOT

ANNOTATORS = ("annotator_ann.key", "annotator_ben.key", "annotator_cho.key")


def run(*args: str, ok: int | None = 0) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "hieradjudicate", *args], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=120, check=False)
    if ok is not None:
        assert out.returncode == ok, (out.returncode, out.stdout, out.stderr)
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "demo.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ANNOTATORS:
        args += ["--annotations", str(DEMO / name)]
    args += ["--annotations", f"lesk={DEMO / 'system_lesk.ans'}:system",
             "--annotations", f"{DEMO / 'system_neural.ans'}:system",
             "--contexts", str(DEMO / "contexts.tsv")]
    out = run(*args)
    assert out.stdout.startswith(f"created {path}: 400 instances, 8 lexelts")
    assert "lesk (system)" in out.stdout
    return path


def agreed_directly() -> set[tuple[str, str]]:
    """Instances the annotators (two at least) answered with the same tag set, counted in
    plain Python over the tag strings."""
    res = load([str(DEMO / "inventory.txt")], [AnnotationSpec(str(DEMO / n)) for n in ANNOTATORS])
    answers: dict[tuple[str, str], list[frozenset[str]]] = {}
    c = res.corpus
    for s in c.sets:
        for r, i in enumerate(s.rows.tolist()):
            answers.setdefault(c.instance_key(i), []).append(frozenset(c.tag_strings(s, r)))
    return {k for k, a in answers.items() if len(a) >= 2 and len(set(a)) == 1}


def test_status_decide_resolve_export_history(project: Path, tmp_path: Path) -> None:
    st = json.loads(run("project", "status", str(project), "--format", "json").stdout)
    assert st["instances"] == 400 and st["status"]["unresolved"] == 400
    assert st["lexelts"]["bank.n"]["total"] == 52 and len(st["lexelts"]) == 8
    text = run("project", "status", str(project)).stdout
    assert "400 unresolved" in text and "bank.n" in text

    out = run("project", "decide", str(project), "bank.n", "bank.n.001", "2.2", "4",
              "--note", "two senses")
    assert out.stdout.startswith("saved #1 bank.n bank.n.001 resolved 2.2 4 (manual)")
    assert len(out.stdout.splitlines()) == 1
    out = run("project", "decide", str(project), "bank.n", "bank.n.007", "--flag")
    assert "flagged" in out.stdout

    expected = agreed_directly() - {("bank.n", "bank.n.001"), ("bank.n", "bank.n.007")}
    first = json.loads(run("project", "status", str(project), "--format", "json").stdout)
    out = run("project", "resolve-agreed", str(project))
    n = int(out.stdout.split("resolved ")[1].split()[0])
    assert n == len(expected) > 200
    st = json.loads(run("project", "status", str(project), "--format", "json").stdout)
    assert st["status"]["resolved"] == first["status"]["resolved"] + n
    assert run("project", "resolve-agreed", str(project)).stdout.split("resolved ")[1] \
        .startswith("0 ")

    key1, key2 = tmp_path / "a.key", tmp_path / "b.key"
    out = run("project", "export", str(project), "--format", "senseval", "-o", str(key1))
    assert f"left out {400 - st['status']['resolved']} not resolved" in out.stdout
    run("project", "export", str(project), "--format", "senseval", "-o", str(key2))
    assert key1.read_bytes() == key2.read_bytes()
    assert b"bank.n bank.n.001 2.2 4\n" in key1.read_bytes()
    out = run("project", "export", str(project), "--format", "jsonl", "-o",
              str(tmp_path / "g.jsonl"), "--include-unresolved")
    rows = [json.loads(x) for x in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert len(rows) == 400 and "left out" not in out.stdout

    hist = run("project", "history", str(project)).stdout
    got = list(csv.DictReader(io.StringIO(hist)))
    assert len(got) == 2 + n and got[0]["note"] == "two senses"
    assert {r["source"] for r in got[2:]} == {"auto-agreement"}
    out = run("project", "history", str(project), "--format", "text", "-o",
              str(tmp_path / "h.txt"))
    assert len((tmp_path / "h.txt").read_text().splitlines()) == 2 + n


def test_resolve_agreed_count_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ANNOTATORS:
        args += ["--annotations", str(DEMO / name)]
    run(*args)
    out = run("project", "resolve-agreed", str(path))
    assert int(out.stdout.split("resolved ")[1].split()[0]) == len(agreed_directly())
    out = run("project", "resolve-agreed", str(path), "--compatible", "most")
    assert "compatible, most specific" in out.stdout


def test_import_decisions_and_errors_name_the_line(project: Path, tmp_path: Path) -> None:
    good = tmp_path / "d.csv"
    good.write_text("lexelt,instance,tags,status,note\n"
                    "bank.n,bank.n.010,1.1;1.2,resolved,from review\n"
                    "bank.n,bank.n.011,2 4,,\n"
                    "bank.n,bank.n.012,,skipped,later\n")
    out = run("project", "import-decisions", str(project), str(good))
    assert out.stdout.strip() == f"imported 3 decision(s) from {good}"
    hist = list(csv.DictReader(io.StringIO(run("project", "history", str(project)).stdout)))
    mine = {r["instance"]: r for r in hist if r["source"] == "import"}
    assert mine["bank.n.010"]["tags"] == "1.1;1.2" and mine["bank.n.011"]["tags"] == "2;4"
    assert mine["bank.n.012"]["status"] == "skipped"
    for body, where, what in [
        ("lexelt,instance,tags\nbank.n,bank.n.010,1.1\nbank.n,bank.n.011,99\n", 3,
         "99 is not a sense of bank.n"),
        ("lexelt,instance,tags\nbank.n,nowhere,1\n", 2, "no instance bank.n nowhere"),
        ("lexelt,instance,tags,status\nbank.n,bank.n.013,1,maybe\n", 2, "status must be"),
        ("lexelt,instance,tags\nbank.n,bank.n.013,\n", 2, "needs a tag"),
        ("lexelt,instance,tags\nbank.n,bank.n.013,1\nbank.n,bank.n.013,2\n", 3, "already"),
        ("lexelt,instance\nbank.n,bank.n.013\n", 1, "missing column(s) tags"),
    ]:
        bad = tmp_path / "bad.csv"
        bad.write_text(body)
        out = run("project", "import-decisions", str(project), str(bad), ok=1)
        assert out.stderr.startswith(f"hieradjudicate: error: {bad}:{where}: "), out.stderr
        assert what in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert len(list(csv.DictReader(io.StringIO(run("project", "history",
                                                       str(project)).stdout)))) == len(hist)


def test_reimport_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "p.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ANNOTATORS:
        args += ["--annotations", str(DEMO / name)]
    run(*args)
    run("project", "resolve-agreed", str(path))
    fixed = tmp_path / "annotator_ben.key"
    text = (DEMO / "annotator_ben.key").read_text().replace("bank.n bank.n.002 1.1",
                                                            "bank.n bank.n.002 4")
    fixed.write_text(text)
    out = run("project", "reimport", str(path), "annotator_ben", str(fixed))
    assert "1 instance(s) changed, 1 decision(s) flagged" in out.stdout
    assert "flagged bank.n bank.n.002: re-import of annotator_ben.key" in out.stdout
    st = json.loads(run("project", "status", str(path), "--format", "json").stdout)
    assert st["status"]["flagged"] == 1
    out = run("project", "reimport", str(path), "nobody", str(fixed), ok=1)
    assert "no annotation set or file 'nobody'" in out.stderr


def test_usage_errors_and_read_only(project: Path, tmp_path: Path) -> None:
    assert run("project", ok=2).returncode == 2
    assert run("project", "status", ok=2).returncode == 2
    assert run("project", "decide", str(project), "bank.n", "bank.n.001", ok=2).returncode == 2
    assert run("project", "export", str(project), "-o", "x", ok=2).returncode == 2
    out = run("project", "status", str(tmp_path / "none.hadj"), ok=1)
    assert out.stderr.strip().endswith("no such project")
    out = run("project", "export", str(project), "--format", "senseval", "-o",
              str(tmp_path / "x"), "--include-unresolved", ok=1)
    assert "Senseval key cannot hold unresolved" in out.stderr
    (tmp_path / "junk.hadj").write_text("not a project\n")
    out = run("project", "status", str(tmp_path / "junk.hadj"), ok=1)
    assert len(out.stderr.strip().splitlines()) == 1
    # another process holds the project open for writing
    code = ("import time\nfrom hieradjudicate.app.session.session import Session\n"
            f"s = Session.open({str(project)!r})\nprint('open', flush=True)\ntime.sleep(60)\n")
    holder = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        before = project.read_bytes()
        out = run("project", "decide", str(project), "bank.n", "bank.n.020", "1", ok=1)
        assert "cannot change the project" in out.stderr and "open in another" in out.stderr
        assert "nothing was changed" in out.stderr and len(out.stderr.strip().splitlines()) == 1
        run("project", "resolve-agreed", str(project), ok=1)
        assert run("project", "status", str(project)).returncode == 0  # reading is fine
        assert project.read_bytes() == before
    finally:
        holder.kill()
        holder.wait()


def test_project_without_an_inventory_is_flat_and_says_so(tmp_path: Path) -> None:
    """Entity links or crowd labels often come without a sense inventory: each tag is a sense."""
    path = tmp_path / "flat.hadj"
    out = run("project", "new", str(path), *[a for n in ANNOTATORS for a in ("--annotations", str(DEMO / n))])
    assert "no --inventory" in out.stderr and "created" in out.stdout
    assert run("project", "new", str(tmp_path / "x.hadj"), ok=2).stderr.count("--annotations") == 1
