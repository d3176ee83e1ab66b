"""A ``-journal`` symbolic link planted beside a project is named as such by ``check`` and by
every command (not "damaged"); SQLite is never let follow it: neither the project nor the file
it points to changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.app.test_session import demo_args


@pytest.fixture
def project(tmp_path: Path) -> Path:
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        s.accept_agreed()
    return path


@pytest.mark.parametrize("points_to", ["a file", "nothing"])
def test_a_planted_journal_link_is_named_and_never_followed(project: Path, tmp_path: Path, capsys,
                                                            points_to: str) -> None:
    target = tmp_path / "elsewhere"
    if points_to == "a file":
        target.write_bytes(b"x" * 4096)
    link = Path(str(project) + "-journal")
    os.symlink(target, link)
    before = project.read_bytes()
    capsys.readouterr()
    assert main(["project", "check", str(project)]) == 1
    out = capsys.readouterr().out
    assert f"REFUSED  beside the project: {link}: is a symbolic link to {target}" in out
    assert "DAMAGED" not in out and "damaged;" not in out
    assert main(["project", "decide", str(project), "bank.n", "bank.n.001", "1.1"]) == 1
    err = capsys.readouterr().err
    assert f"{link}: is a symbolic link" in err and "damaged or not a database" not in err
    assert main(["project", "repair", str(project), "-o", str(tmp_path / "fixed.hadj")]) == 1
    assert f"{link}: is a symbolic link" in capsys.readouterr().err
    assert project.read_bytes() == before
    assert target.read_bytes() == b"x" * 4096 if points_to == "a file" else not target.exists()
    link.unlink()
    assert main(["project", "check", str(project)]) == 0
