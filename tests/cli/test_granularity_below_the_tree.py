"""``agree --granularity depth=N`` at or below the inventory's deepest level says that the cut keeps every
sense, so its figures are the leaf figures (they are: checked here); before, "depth=9" on a 3-deep tree gave
the leaf figures under that label with no word (found by helper trial47)."""

from __future__ import annotations

import json

import pytest

from hieradjudicate.cli.entry import main
from tests.cli.conftest import DEMO

FILES = ["--inventory", str(DEMO / "inventory.txt"), *(a for n in ("ann", "ben", "cho")
                                                       for a in ("--annotations", str(DEMO / f"annotator_{n}.key")))]


def _agree(capsys, granularity: str) -> tuple[dict, str]:
    assert main(["agree", *FILES, "--granularity", granularity, "--format", "json"]) == 0
    cap = capsys.readouterr()
    return json.loads(cap.out), cap.err


@pytest.mark.parametrize("depth", [3, 9])
def test_a_cut_below_the_deepest_sense_is_said_to_give_the_leaf_figures(capsys, depth) -> None:
    leaf, _ = _agree(capsys, "leaf")
    cut, err = _agree(capsys, f"depth={depth}")
    assert f"the inventory is 3 level(s) deep, so a cut at depth {depth} keeps every sense" in err
    assert [p["kappa_cohen"] for p in cut["pairs"]] == [p["kappa_cohen"] for p in leaf["pairs"]]


def test_a_cut_within_the_tree_says_nothing_of_it(capsys) -> None:
    leaf, _ = _agree(capsys, "leaf")
    cut, err = _agree(capsys, "depth=2")
    assert "keeps every sense" not in err
    assert [p["kappa_cohen"] for p in cut["pairs"]] != [p["kappa_cohen"] for p in leaf["pairs"]]
