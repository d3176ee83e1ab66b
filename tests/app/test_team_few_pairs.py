"""Issue 31 (minor): the lead's kappa on too few overlap pairs says so instead of printing a zero-width
interval ("-0.500 [-0.500, -0.500]" on one pair)."""

from __future__ import annotations

import json
from pathlib import Path

from hieradjudicate.app.demo import ensure_demo_project
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.team import MIN_INTERVAL_PAIRS, figures, figures_table


def _figures(path: Path, n: int):
    with Session.open(path, read_only=True) as s:
        keys = [k for k in s.instances() if k[0] == "bank.n"][:n]
        assignments = [(*k, p, True) for k in keys for p in ("alice", "bob")]
        adj = [(*k, "alice", json.dumps(["1.1"]), "resolved", i, 1e9 + i) for i, k in enumerate(keys)]
        adj += [(*k, "bob", json.dumps(["1.1" if i % 2 else "4"]), "resolved", 100 + i, 1e9 + i)
                for i, k in enumerate(keys)]
        return figures(s.corpus, assignments, adj, [], n_resamples=200)


def test_one_overlap_pair_gives_kappa_without_a_zero_width_interval(tmp_path: Path) -> None:
    path = ensure_demo_project(tmp_path / "demo.hadj")
    figs = _figures(path, 1)
    header, rows = figures_table(figs)
    cell = rows[0][header.index("kappa (Cohen) 95% CI")]
    assert "[" not in cell and cell.endswith("(too few pairs for an interval)")
    assert any("only 1 overlap pair(s)" in r for r in figs[0].reasons)
    header, rows = figures_table(_figures(path, MIN_INTERVAL_PAIRS + 10))  # enough pairs: the interval
    cell = rows[0][header.index("kappa (Cohen) 95% CI")]
    assert "[" in cell and "too few" not in cell
