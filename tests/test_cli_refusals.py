"""Figures that cannot be computed as labelled are refused (#13): coarse/mixed need a hierarchy."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main


@pytest.mark.parametrize("policy", ["coarse", "mixed"])
def test_coarse_and_mixed_without_a_sense_map_are_refused(tmp_path: Path, capsys, policy: str) -> None:
    key = tmp_path / "gold.key"
    key.write_text("bank.n bank.n.1 bank%1\nbank.n bank.n.2 bank%2\n")
    ans = tmp_path / "sys.ans"
    ans.write_text("bank.n bank.n.1 bank%1\nbank.n bank.n.2 bank%1\n")
    rc = main(["score", "--gold", str(key), "--system", f"s={ans}", "--policy", policy])
    out = capsys.readouterr()
    assert rc == 1
    assert f"--policy {policy} needs a sense hierarchy" in out.err
    assert "precision" not in out.out  # no figure printed under a wrong label


def test_coarse_with_a_sense_map_scores(tmp_path: Path, capsys) -> None:
    key = tmp_path / "gold.key"
    key.write_text("bank.n bank.n.1 bank%1\nbank.n bank.n.2 bank%2\n")
    ans = tmp_path / "sys.ans"
    ans.write_text("bank.n bank.n.1 bank%1\nbank.n bank.n.2 bank%1\n")
    smap = tmp_path / "bank.sensemap"
    smap.write_text("bank%1 2 bank%0\nbank%2 2 bank%0\n")
    rc = main(["score", "--inventory", str(smap), "--gold", str(key), "--system", f"s={ans}",
               "--policy", "coarse", "--format", "json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert '"precision": 1.0' in out.out  # both answers fall under bank%0
    rc = main(["score", "--inventory", str(smap), "--gold", str(key), "--system", f"s={ans}",
               "--policy", "fine", "--format", "json"])
    assert '"precision": 0.5' in capsys.readouterr().out
