"""score --policy coarse|mixed warns when gold tags are not senses of the inventory (they match only
exactly: their coarse figure is the fine one). Before, Senseval-3's key scored with WordNet as the
inventory gave a 'coarse' figure with half the gold tags (the verbs' numeric ids) scored fine, silently."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    smap = tmp_path / "bank.sensemap"
    smap.write_text("bank%1 2 bank%0\nbank%2 2 bank%0\n")
    key, ans = tmp_path / "gold.key", tmp_path / "sys.ans"
    key.write_text("bank.n bank.n.1 bank%1\nbank.n bank.n.2 38201\nbank.n bank.n.3 U\nbank.n bank.n.4 38202\n")
    ans.write_text("bank.n bank.n.1 bank%2\nbank.n bank.n.2 38201\nbank.n bank.n.3 U\nbank.n bank.n.4 38201\n")
    return smap, key, ans


@pytest.mark.parametrize("policy", ["coarse", "mixed"])
def test_gold_tags_outside_the_inventory_are_warned_of(tmp_path, capsys, policy):
    smap, key, ans = _files(tmp_path)
    assert main(["score", "--inventory", str(smap), "--gold", str(key), "--system", str(ans),
                 "--policy", policy]) == 0
    err = capsys.readouterr().err
    assert (f"2 of the gold's 4 tags are not senses of the inventory (first: bank.n 38201); --policy {policy} "
            "matches them only exactly, so there the figure is the fine one") in err


def test_no_warning_under_fine_nor_for_u_alone(tmp_path, capsys):
    smap, key, ans = _files(tmp_path)
    assert main(["score", "--inventory", str(smap), "--gold", str(key), "--system", str(ans),
                 "--policy", "fine"]) == 0
    assert "of the gold's" not in capsys.readouterr().err
    key.write_text("bank.n bank.n.1 bank%1\nbank.n bank.n.3 U\n")
    assert main(["score", "--inventory", str(smap), "--gold", str(key), "--system", str(ans),
                 "--policy", "coarse"]) == 0
    assert "of the gold's" not in capsys.readouterr().err
