"""One NAME given to two --system files is refused by score and compare under every policy: before,
score printed two rows both called 'lesk' (fine) or quietly renamed the second 'lesk-2' (leaf), and compare
renamed it (leaf) or refused it (fine) -- the same typo met four ways."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.mark.parametrize("command", ["score", "compare"])
@pytest.mark.parametrize("policy", ["leaf", "fine", "mixed"])
def test_a_name_given_to_two_system_files_is_refused(capsys, command, policy):
    rc = main([command, "--inventory", str(DEMO / "inventory.txt"), "--gold", str(DEMO / "annotator_ann.key"),
               "--system", f"lesk={DEMO / 'system_lesk.ans'}", "--system", f"lesk={DEMO / 'system_neural.ans'}",
               "--policy", policy])
    out = capsys.readouterr()
    assert rc == 1
    assert "--system: the name 'lesk' is given to more than one file" in out.err
    assert "system_neural.ans" in out.err and "precision" not in out.out


def test_the_same_file_without_names_is_still_scored_under_two_names(capsys):
    rc = main(["score", "--inventory", str(DEMO / "inventory.txt"), "--gold", str(DEMO / "annotator_ann.key"),
               "--system", str(DEMO / "system_lesk.ans"), "--system", f"other={DEMO / 'system_lesk.ans'}"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "system_lesk " in out and "other " in out
