"""#24 item 5: a system answer with two keys gets split credit (scorer2's and the WSD framework's rule),
and the output says so."""

from __future__ import annotations

import json

import pytest

from hieradjudicate.cli.entry import main


@pytest.mark.parametrize("policy", ["fine", "leaf"])
def test_two_keys_one_right_earn_half_and_the_text_says_why(tmp_path, capsys, policy) -> None:
    gold = tmp_path / "gold.key"
    gold.write_text("bank.n b1 s1\nbank.n b2 s2\n")
    ans = tmp_path / "sys.ans"
    ans.write_text("bank.n b1 s1 s2\nbank.n b2 s2\n")
    inv = tmp_path / "inv.txt"
    inv.write_text("# lexelt bank.n\ns1: money\ns2: river\n")
    args = ["score", "--gold", str(gold), "--system", f"x={ans}", "--policy", policy]
    if policy == "leaf":
        args += ["--inventory", str(inv)]
    assert main([*args, "--format", "json"]) == 0
    s = json.loads(capsys.readouterr().out)["systems"][0]
    assert s["score_sum"] == pytest.approx(1.5) and s["precision"] == pytest.approx(0.75)
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "splits its one point" in text and "WSD evaluation framework" in text
