"""``project decide`` (and ``import-decisions``) with the wrong lexelt names the lexelt the instance id
belongs to, and an unknown sense lists the lexelt's senses: before, the user read only 'no instance
document.n d000.s000.t001 in the project' (in all-words data the lexelt comes from the key's first sense)
or 'is not a sense of bank.n', and had to find the right one elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.fixture
def project(ann_project: Path) -> Path:
    return ann_project


def test_a_wrong_lexelt_names_the_lexelt_of_the_instance(project, capsys):
    capsys.readouterr()
    assert main(["project", "decide", str(project), "line.n", "bank.n.001", "1.1"]) == 1
    assert "no instance line.n bank.n.001 in the project; bank.n.001 is an instance of bank.n" in \
        capsys.readouterr().err


def test_an_unknown_sense_lists_the_lexelts_senses(project, tmp_path, capsys):
    capsys.readouterr()
    assert main(["project", "decide", str(project), "bank.n", "bank.n.001", "9.9"]) == 1
    assert "9.9 is not a sense of bank.n (its senses: 1, 1.1, 1.2, 2, 2.1, 2.2, 3, 3.1, 3.2, 4, U)" in \
        capsys.readouterr().err
    f = tmp_path / "d.csv"
    f.write_text("lexelt,instance,tags\nbank.n,bank.n.001,9.9\n")
    assert main(["project", "import-decisions", str(project), str(f)]) == 1
    assert f"{f}:2: 9.9 is not a sense of bank.n (its senses: 1, 1.1," in capsys.readouterr().err
