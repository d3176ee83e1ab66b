"""A system's distance cost depends only on itself, the gold and the inventory (#13 item 4).

Before: an out-of-inventory tag of *another* system entered the lexelt's
normaliser (the largest leaf distance), so system ``s`` cost 0.5 alone and
0.333 beside ``t``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {
        "gold": "bank.n bank.n.1 bank%1\nbank.n bank.n.2 bank%2\n",
        "s": "bank.n bank.n.1 bank%1\nbank.n bank.n.2 bank%1\n",
        "t": "bank.n bank.n.1 X\nbank.n bank.n.2 bank%1\n",  # X is outside the inventory
        "map": "bank%1 2 bank%0\nbank%2 2 bank%0\n",  # one group: bank%1 - bank%0 - bank%2 = 2 edges
    }
    paths = {}
    for name, text in out.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text(text)
    return paths


def _costs(capsys, files, *systems: str) -> dict[str, float]:
    args = ["score", "--inventory", str(files["map"]), "--gold", str(files["gold"]), "--policy", "leaf",
            "--format", "json"]
    for s in systems:
        args += ["--system", f"{s}={files[s]}"]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = doc["systems"] if isinstance(doc, dict) and "systems" in doc else doc
    found = {}
    for row in rows if isinstance(rows, list) else rows.values():
        found[row.get("system") or row.get("name")] = row["distance_cost"]
    return found


def test_cost_alone_equals_cost_beside_a_system_with_an_outside_tag(capsys, files) -> None:
    alone = _costs(capsys, files, "s")
    beside = _costs(capsys, files, "s", "t")
    assert alone["s"] == pytest.approx(0.5)  # one exact answer (0), one sibling (2/2 edges = 1)
    assert beside["s"] == pytest.approx(alone["s"])


def test_an_outside_tag_costs_at_most_one(capsys, files) -> None:
    # X joins the virtual root: 3 edges to bank%1, more than the inventory's largest (2): capped at 1
    assert _costs(capsys, files, "t")["t"] == pytest.approx(1.0)
