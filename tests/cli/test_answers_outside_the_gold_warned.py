"""Answers naming instances the gold lacks are left out of the score and said so, under every
policy and in ``compare`` too: before, the default ``leaf`` policy and ``compare`` dropped them silently
(a system file of another task scored 0 with coverage 0 and no word why)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main

WARNING = "2 answer line(s) name an instance that is not in the gold (first: bank.n bank.n.9, zz.n zz.n.1)"


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    inv = tmp_path / "inventory.txt"
    inv.write_text("# lexelt bank.n\n1: money\n  1.1: the firm\n  1.2: the building\n2: river side\n")
    key, ans = tmp_path / "gold.key", tmp_path / "sys.ans"
    key.write_text("bank.n bank.n.1 1.1\nbank.n bank.n.2 2\n")
    ans.write_text("bank.n bank.n.1 1.1\nbank.n bank.n.9 2\nzz.n zz.n.1 x\n")
    return inv, key, ans


@pytest.mark.parametrize("policy", ["leaf", "fine", "mixed"])
def test_score_warns_of_answers_outside_the_gold_under_every_policy(tmp_path, capsys, policy):
    inv, key, ans = _files(tmp_path)
    assert main(["score", "--inventory", str(inv), "--gold", str(key), "--system", f"s={ans}",
                 "--policy", policy]) == 0
    err = capsys.readouterr().err
    assert f"warning: s: {WARNING}" in err


@pytest.mark.parametrize("policy", ["leaf", "fine"])
def test_compare_warns_of_answers_outside_the_gold(tmp_path, capsys, policy):
    inv, key, ans = _files(tmp_path)
    other = tmp_path / "other.ans"
    other.write_text("bank.n bank.n.1 1.2\nbank.n bank.n.2 2\n")
    assert main(["compare", "--inventory", str(inv), "--gold", str(key), "--system", f"s={ans}",
                 "--system", f"t={other}", "--policy", policy, "--shuffles", "10", "--resamples", "10"]) == 0
    err = capsys.readouterr().err
    assert f"warning: s: {WARNING}" in err
    assert "warning: t:" not in err
