"""An outline or JSON sense inventory given as annotations is named as an inventory: before, the demo's
own inventory.txt was read as a Senseval key ('# lexelt bank.n' as lexelt '#', instance 'lexelt') with 25
duplicate answers, a missing tag and 19 'lexelts' such as '1.1:', in validate, score and the wizard."""

from __future__ import annotations

from pathlib import Path

import hieradjudicate
from hieradjudicate.app.loading.load import AnnotationSpec, load
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


def test_an_outline_given_as_annotations_is_named_as_an_inventory(capsys):
    assert main(["validate", "--inventory", str(DEMO / "inventory.txt"),
                 "--annotations", str(DEMO / "inventory.txt")]) == 1
    out = capsys.readouterr().out
    assert "this is an indented outline ('# lexelt NAME' lines, then 'id: gloss': a sense inventory), not " \
           "annotations; give it with --inventory" in out
    assert "duplicate answer" not in out


def test_a_json_inventory_given_as_gold_is_named_as_an_inventory(tmp_path, capsys):
    inv = tmp_path / "senses.json"
    inv.write_text('{"lexelts": {"bank.n": [{"id": "1", "gloss": "money"}]}}\n')
    assert main(["score", "--gold", str(inv), "--system", str(DEMO / "system_lesk.ans")]) == 1
    assert 'this is a JSON sense inventory ({"lexelts": ...}), not annotations' in capsys.readouterr().err


def test_the_loader_the_wizard_uses_says_the_same():
    res = load([], [AnnotationSpec(str(DEMO / "inventory.txt"))], strict=False)
    assert any("this is an indented outline" in p.message for p in res.problems)


def test_the_wizards_annotation_page_lists_it_with_the_reason():
    from hieradjudicate.app.loading.sniff import sniff

    found = sniff(str(DEMO / "inventory.txt"), "annotations")
    assert found.format != "senseval" and "this is an indented outline" in (found.problem or "")
