"""A system whose answer tags are not senses of the inventory given (another id scheme) is warned of
under every policy: before, such a system scored 0 (or only where the gold had the same string) with
no word why, by either route of scorer2's policies and under leaf."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.app import scorer2_fast
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
SAYS = "renamed: 877 of its 877 answer tags are not senses of the inventory (first: s4)"


def _renamed(tmp_path: Path) -> Path:
    out = []
    for line in (DEMO / "system_lesk.ans").read_text().splitlines():
        lex, inst, *tags = line.split()
        out.append(" ".join([lex, inst] + ["s" + t for t in tags]))
    path = tmp_path / "renamed.ans"
    path.write_text("\n".join(out) + "\n")
    return path


@pytest.mark.parametrize("policy", ["leaf", "fine", "mixed"])
@pytest.mark.parametrize("route", ["bytes", "strict"])
def test_a_system_in_another_id_scheme_is_warned_of(tmp_path, capsys, monkeypatch, policy, route):
    if route == "strict":
        monkeypatch.setattr(scorer2_fast, "scan_key", lambda gold, systems: None)
    assert main(["score", "--inventory", str(DEMO / "inventory.txt"), "--gold", str(DEMO / "annotator_ann.key"),
                 "--system", str(_renamed(tmp_path)), "--system", str(DEMO / "system_lesk.ans"),
                 "--policy", policy]) == 0
    err = capsys.readouterr().err
    assert SAYS in err and "system_lesk:" not in err


def test_no_inventory_no_warning(tmp_path, capsys):
    assert main(["score", "--gold", str(DEMO / "annotator_ann.key"), "--system", str(_renamed(tmp_path)),
                 "--policy", "fine"]) == 0
    assert "not senses of the inventory" not in capsys.readouterr().err
