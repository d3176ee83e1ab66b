"""A project given where an input file was expected (score --gold P.hadj, --annotations P.hadj,
--inventory P.hadj) is named as a project, with how to get its gold: before, 'file looks binary;
expected a text file'."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
SAYS = "this is a hieradjudicate project, not an input file; its adjudicated gold is written by 'project export"


@pytest.fixture
def project(ann_project: Path) -> Path:
    return ann_project


@pytest.mark.parametrize("policy", ["leaf", "fine"])
def test_score_with_a_project_as_gold_says_it_is_one(project, capsys, policy):
    capsys.readouterr()
    assert main(["score", "--inventory", str(DEMO / "inventory.txt"), "--gold", str(project),
                 "--system", str(DEMO / "system_lesk.ans"), "--policy", policy]) == 1
    assert SAYS in capsys.readouterr().err


@pytest.mark.parametrize("role", ["--annotations", "--inventory"])
def test_validate_with_a_project_as_input_says_it_is_one(project, capsys, role):
    capsys.readouterr()
    assert main(["validate", role, str(project)]) == 1
    assert SAYS in capsys.readouterr().out
