"""#22 items 1 and 5: a left-out decision is never silent; writes never follow a planted link."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.app.test_session import demo_args


def _dec(lexelt: str, inst: str, note: str):
    from types import SimpleNamespace
    return SimpleNamespace(lexelt=lexelt, instance=inst, tags=(), source="manual", status="flagged",
                           note=note, decided_by="ann", decided_at="2026-01-01T00:00:00Z", basis=None)


@pytest.fixture
def forged(tmp_path: Path) -> tuple[Path, str]:
    """A demo project with 6 decisions, one of whose notes was edited outside the program."""
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        for k, (lexelt, inst) in enumerate(s.instances()[:6]):
            s.store.append_decisions([_dec(lexelt, inst, f"n{k}")])
    conn = sqlite3.connect(path)
    lex, inst = conn.execute("SELECT lexelt, instance FROM decisions WHERE note = 'n3'").fetchone()
    conn.execute("UPDATE decisions SET note = 'forged' WHERE note = 'n3'")
    conn.commit()
    conn.close()
    return path, f"#4 ({lex} {inst})"


def test_status_names_the_left_out_decision(forged, capsys) -> None:
    path, name = forged
    assert main(["project", "status", str(path)]) == 0
    out = capsys.readouterr()
    assert "1 decision row(s) are left out" in out.err and name in out.err
    assert "left out of these counts" in out.out and name in out.out
    assert main(["project", "status", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["left_out"]) == 1 and doc["left_out"][0].startswith(name)


def test_export_refuses_unless_told_to_go_on(forged, tmp_path: Path, capsys) -> None:
    path, name = forged
    out = tmp_path / "gold.csv"
    assert main(["project", "export", str(path), "--format", "csv", "-o", str(out),
                 "--include-unresolved"]) == 1
    err = capsys.readouterr().err
    assert "not exported" in err and name in err and "--without-damaged" in err
    assert not out.exists()
    assert main(["project", "export", str(path), "--format", "csv", "-o", str(out),
                 "--include-unresolved", "--without-damaged"]) == 0
    assert name in capsys.readouterr().err
    assert "forged" not in out.read_text() and "n2" in out.read_text()


def test_history_and_report_name_it(forged, tmp_path: Path, capsys) -> None:
    path, name = forged
    assert main(["project", "history", str(path), "--format", "text"]) == 0
    out = capsys.readouterr()
    assert name in out.err and "forged" not in out.out
    report = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(report), "--competence", "none",
                 "--resamples", "0"]) == 0
    assert name in capsys.readouterr().err
    html = report.read_text()
    assert "1 decision row(s) are left out" in html and name.split(" (")[0] in html


def test_a_link_planted_at_the_old_temporary_name_is_not_followed(tmp_path: Path) -> None:
    """Item 5: ``report`` wrote ``.NAME.tmp-PID`` with a plain write that followed a planted link."""
    from hieradjudicate.app.report.html import write_report

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "r.html"
    os.symlink(victim, tmp_path / f".r.html.tmp-{os.getpid()}")

    class _Data:  # write_report only needs what render_report reads; patch that out
        summary = {"sets": []}

    import hieradjudicate.app.report.html as html_mod

    original = html_mod.render_report
    html_mod.render_report = lambda data, **kw: "<html>report</html>\n"
    try:
        write_report(_Data(), target)
    finally:
        html_mod.render_report = original
    assert victim.read_text() == "precious\n"
    assert not target.is_symlink() and target.read_text() == "<html>report</html>\n"


def test_a_link_at_the_target_is_replaced_not_followed(tmp_path: Path) -> None:
    from hieradjudicate.io.atomic import write_atomic

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "gold.csv"
    os.symlink(victim, target)
    write_atomic(target, "a,b\n")
    assert victim.read_text() == "precious\n" and not target.is_symlink()
    assert target.read_text() == "a,b\n"


def test_a_killed_writer_leaves_nothing_for_long(tmp_path: Path) -> None:
    """A writer killed after creating its temporary file: the next write removes it (its pid is gone)."""
    from hieradjudicate.io.atomic import write_atomic

    target = tmp_path / "gold.csv"
    code = ("import os, sys\n"
            "import hieradjudicate.io.atomic as a\n"
            "def stop(fd, payload):\n"
            "    os.write(fd, payload[:3]); os._exit(9)\n"
            "a._write_all = stop\n"
            "a.write_atomic(sys.argv[1], 'x' * 100000)\n")
    subprocess.run([sys.executable, "-c", code, str(target)], check=False,
                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    write_atomic(target, "a,b\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold.csv"]
