"""``report -o`` and ``project export -o`` refuse to write over the project itself or one of its input
files: before, ``report demo.hadj -o demo.hadj`` and ``project export demo.hadj ... -o demo.hadj`` replaced
the project (every decision) by HTML or a gold file, and ``-o annotator_ann.key`` an annotator's file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.fixture
def project(tmp_path) -> Path:
    for name in ("inventory.txt", "annotator_ann.key", "annotator_ben.key"):
        shutil.copy(DEMO / name, tmp_path / name)
    p = tmp_path / "demo.hadj"
    assert main(["project", "new", str(p), "--inventory", str(tmp_path / "inventory.txt"),
                 "--annotations", f"ann={tmp_path / 'annotator_ann.key'}",
                 "--annotations", f"ben={tmp_path / 'annotator_ben.key'}"]) == 0
    assert main(["project", "decide", str(p), "bank.n", "bank.n.001", "1.1"]) == 0
    return p


@pytest.mark.parametrize("command", [["report", "--competence", "none"], ["project", "export", "--format", "csv"]])
@pytest.mark.parametrize("target", ["demo.hadj", "annotator_ann.key", "inventory.txt"])
def test_the_project_and_its_inputs_are_not_written_over(project, capsys, command, target):
    out = project.parent / target
    before = out.read_bytes()
    args = command[:1] + ([str(project)] if command[0] == "report" else [command[1], str(project)])
    args += command[1:] if command[0] == "report" else command[2:]
    capsys.readouterr()
    assert main(args + ["-o", str(out)]) == 1
    what = "the report" if command[0] == "report" else "the export"
    err = capsys.readouterr().err
    assert f"{out}: this is " in err and f"{what} would overwrite it. Choose another output file" in err
    assert out.read_bytes() == before
    assert main(["project", "status", str(project)]) == 0
    assert "1 resolved" in capsys.readouterr().out


def test_report_from_input_files_is_not_written_over_them(tmp_path, capsys):
    key = tmp_path / "ben.key"
    shutil.copy(DEMO / "annotator_ben.key", key)
    before = key.read_bytes()
    assert main(["report", "--inventory", str(DEMO / "inventory.txt"), "--annotations",
                 str(DEMO / "annotator_ann.key"), "--annotations", str(key), "-o", str(key)]) == 1
    assert f"{key}: this is one of the input files; the report would overwrite it" in capsys.readouterr().err
    assert key.read_bytes() == before


def test_an_ordinary_output_is_written(project, capsys):
    assert main(["project", "export", str(project), "--format", "csv", "-o", str(project.parent / "gold.csv")]) == 0
    assert (project.parent / "gold.csv").read_text().startswith("lexelt,instance,tags")


@pytest.mark.parametrize("fmt", ["csv", "json", "text"])
def test_history_is_not_written_over_the_project(project, capsys, fmt):
    before = project.read_bytes()
    assert main(["project", "history", str(project), "--format", fmt, "-o", str(project)]) == 1
    assert f"{project}: this is the project itself; the history would overwrite it" in capsys.readouterr().err
    assert project.read_bytes() == before
