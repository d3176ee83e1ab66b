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


def _demo_project(tmp_path: Path) -> Path:
    from tests.conftest import DEMO

    proj = tmp_path / "d.hadj"
    assert main(["project", "new", str(proj), "--inventory", str(DEMO / "inventory.txt"),
                 "--annotations", f"ann={DEMO / 'annotator_ann.key'}",
                 "--annotations", f"ben={DEMO / 'annotator_ben.key'}"]) == 0
    return proj


def test_report_to_a_folder_or_a_missing_folder_is_refused(tmp_path: Path, capsys) -> None:
    proj = _demo_project(tmp_path)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    capsys.readouterr()
    assert main(["report", str(proj), "-o", str(out_dir)]) == 1
    assert "is a folder" in capsys.readouterr().err
    assert main(["report", str(proj), "-o", str(tmp_path / "missing" / "x" / "r.html")]) == 1
    err = capsys.readouterr().err
    assert "does not exist" in err and "internal error" not in err
    leftovers = [p.name for p in tmp_path.rglob(".*tmp-*")]
    assert leftovers == []
    assert main(["report", str(proj), "-o", str(out_dir / "r.html")]) == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["r.html"]
