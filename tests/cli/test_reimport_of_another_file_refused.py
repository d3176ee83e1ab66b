"""``project reimport`` refuses a file that is not a new version of the set's: one that shares no instance
with the project, and one bringing lexelts the project's inventory lacks (unless --skip-bad-lines). Before,
re-importing the Senseval-3 key as the demo's 'ann' replaced ann's 400 answers by 3,944 instances of 57
lexelts the inventory lacks (the project grew to 4,344 instances), with exit 0 -- inputs project new refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.fixture
def project(ann_ben_project: Path) -> Path:
    return ann_ben_project


def _status(project, capsys) -> str:
    capsys.readouterr()
    assert main(["project", "status", str(project)]) == 0
    return capsys.readouterr().out.splitlines()[0]


def test_a_file_sharing_no_instance_with_the_project_is_refused(project, tmp_path, capsys):
    before = _status(project, capsys)
    other = tmp_path / "other.key"
    other.write_text("art.n art.n.1 art%1:06:00::\nart.n art.n.2 art%1:06:00::\n")
    assert main(["project", "reimport", str(project), "ann", str(other)]) == 1
    assert (f"{other}: none of its 2 answered instance(s) is an instance of the project (first: art.n art.n.1); "
            "is it the right file? Nothing was changed") in capsys.readouterr().err
    assert _status(project, capsys) == before


def test_lexelts_the_inventory_lacks_are_refused_unless_skip_bad_lines(project, tmp_path, capsys):
    grown = tmp_path / "ann.key"
    grown.write_text((DEMO / "annotator_ann.key").read_text() + "zz.n zz.n.1 1\n")
    assert main(["project", "reimport", str(project), "ann", str(grown)]) == 1
    assert "1 lexelt(s) are absent from the project's inventory: zz.n" in capsys.readouterr().err
    assert main(["project", "reimport", str(project), "ann", str(grown), "--skip-bad-lines"]) == 0
    assert "zz.n; their tags become senses of their own (--skip-bad-lines)" in capsys.readouterr().err


def test_a_changed_version_of_the_file_is_re_imported(project, tmp_path, capsys):
    changed = tmp_path / "ben.key"
    changed.write_text((DEMO / "annotator_ben.key").read_text().replace(" 1.1\n", " 1.2\n"))
    assert main(["project", "reimport", str(project), "ben", str(changed)]) == 0
    assert "re-imported ben from" in capsys.readouterr().out


def test_with_skip_bad_lines_both_warnings_are_said(project, tmp_path, capsys):
    """The left-out lines' warning and the absent lexelts' are both printed, neither replaces the other."""
    grown = tmp_path / "ann.key"
    grown.write_text((DEMO / "annotator_ann.key").read_text() + "zz.n zz.n.1 1\nbank.n\n")
    assert main(["project", "reimport", str(project), "ann", str(grown), "--skip-bad-lines"]) == 0
    err = capsys.readouterr().err
    assert "skipped 1 line(s) with problems (--skip-bad-lines)" in err
    assert "1 lexelt(s) are absent from the project's inventory: zz.n" in err
