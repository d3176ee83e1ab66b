"""``hieradjudicate FILE`` with an input file or a folder says it is not a project and how to make one
(exit 2): before, argparse answered "argument COMMAND: invalid choice: 'EnglishLS.test.key'" and listed
the commands; a project file without the .hadj ending is opened like one."""

from __future__ import annotations

import shutil
from pathlib import Path

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


def test_an_input_file_is_not_a_project_and_the_message_says_how_to_make_one(capsys):
    assert main([str(DEMO / "annotator_ann.key")]) == 2
    err = capsys.readouterr().err
    assert f"{DEMO / 'annotator_ann.key'}: not a project; the window opens a project (P.hadj) or the demo" in err
    assert "hieradjudicate project new P.hadj --inventory INVENTORY --annotations FILE" in err
    assert "invalid choice" not in err


def test_a_folder_is_named_as_one(tmp_path, capsys):
    assert main([str(tmp_path)]) == 2
    assert f"{tmp_path}: a folder; the window opens a project" in capsys.readouterr().err


def test_a_project_named_otherwise_opens_as_a_project(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)  # no display: the window prints the status
    p = tmp_path / "demo.hadj"
    assert main(["project", "new", str(p), "--inventory", str(DEMO / "inventory.txt"),
                 "--annotations", f"ann={DEMO / 'annotator_ann.key'}"]) == 0
    other = tmp_path / "demo.db"
    shutil.copy(p, other)
    capsys.readouterr()
    assert main([str(other)]) == 0
    assert "demo.db: 400 instances" in capsys.readouterr().out


def test_a_command_name_still_runs_the_command(capsys):
    assert main(["validate", "--inventory", str(DEMO / "inventory.txt")]) == 0
    assert "valid" in capsys.readouterr().out
