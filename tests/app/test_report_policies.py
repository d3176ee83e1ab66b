"""Coarse and mixed scores need a hierarchy in the dashboard and report too (#13 item 2).

With a flat inventory the coarse and mixed figures equal the fine one; the old
report printed them under their own labels.  Now they are left out and the
report says why; with a tree the four policies are there.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hieradjudicate.app.dashboard.scores import NO_HIERARCHY
from hieradjudicate.cli.entry import main

FLAT = "lexelt\tsense\tparent\nbank.n\tb1\t\nbank.n\tb2\t\nbank.n\tb3\t\n"
TREE = "lexelt\tsense\tparent\nbank.n\tb0\t\nbank.n\tb1\tb0\nbank.n\tb2\tb0\nbank.n\tb3\t\n"


def _report(tmp_path: Path, inventory: str) -> tuple[list[str], str]:
    inv = tmp_path / "inv.tsv"
    inv.write_text(inventory)
    gold = tmp_path / "g.key"
    gold.write_text("".join(f"bank.n {i} b{i % 3 + 1}\n" for i in range(1, 7)))
    system = tmp_path / "s.ans"
    system.write_text("".join(f"bank.n {i} b{i % 2 + 1}\n" for i in range(1, 7)))
    out = tmp_path / "r.html"
    tables = tmp_path / "tables"
    assert main(["report", "--inventory", str(inv), "--annotations", f"{gold}:gold",
                 "--annotations", f"{system}:system", "--annotations", f"{gold}:annotator",
                 "-o", str(out), "--resamples", "0", "--tables-dir", str(tables)]) == 0
    with open(tables / "system_scores.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return [(r["policy"], round(float(r["precision"]), 4)) for r in rows], out.read_text(encoding="utf-8")


def test_flat_inventory_leaves_coarse_and_mixed_out_with_the_reason(tmp_path: Path) -> None:
    rows, html = _report(tmp_path, FLAT)
    assert [p for p, _ in rows] == ["leaf", "fine"]
    assert NO_HIERARCHY in html  # the reason, next to the table and in the method section
    assert "coarse" not in [p for p, _ in rows]


def test_tree_inventory_gives_all_four_policies(tmp_path: Path) -> None:
    rows, html = _report(tmp_path, TREE)
    # gold b2 b3 b1 b2 b3 b1, system b2 b1 b2 b1 b2 b1: fine 2/6; coarse (b1, b2 under b0) 4/6
    assert rows[1:] == [("fine", pytest.approx(0.3333, abs=1e-4)), ("coarse", pytest.approx(0.6667, abs=1e-4)),
                        ("mixed", pytest.approx(0.3333, abs=1e-4))]
    assert NO_HIERARCHY not in html
