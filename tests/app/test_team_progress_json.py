"""#36 item 3: the lead's ``project progress`` figures as numbers, seeded, and speed without imports."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import hieradjudicate
from hieradjudicate.app.loading.load import AnnotationSpec, load
from hieradjudicate.app.team import figures, figures_json
from hieradjudicate.app.textout import json_text

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


def _case(n_import: int = 0):
    c = load([str(DEMO / "inventory.txt")], [AnnotationSpec.parse(str(DEMO / "annotator_ann.key"))], []).corpus
    inv = c.inventory
    x = int(np.argmax(inv.n_leaves))
    lexelt = inv.lexelts[x]
    tags = [inv.label(int(v)) for v in inv.lexelt_leaf_nodes[x]][:3]
    keys = [c.instance_key(i) for i in range(c.n) if c.instance_key(i)[0] == lexelt]
    rng = np.random.default_rng(11)
    a = rng.integers(0, 3, len(keys))
    b = np.where(rng.random(len(keys)) < 0.6, a, rng.integers(0, 3, len(keys)))
    assignments = [(k[0], k[1], p, True) for k in keys for p in ("alice", "bob")]
    t0 = 1_800_000_000.0
    adj = [(k[0], k[1], "alice", json.dumps([tags[v]]), "resolved", i, t0 + 30 * i, None, i)
           for i, (k, v) in enumerate(zip(keys, a, strict=True))]
    adj += [(k[0], k[1], "bob", json.dumps([tags[v]]), "resolved", 100 + i, t0 + 20 * i, None, 100 + i)
            for i, (k, v) in enumerate(zip(keys, b, strict=True))]
    # an import: alice's file of decisions written in one step (one batch, one commit time)
    adj += [(k[0], k[1], "alice", json.dumps([tags[v]]), "resolved", 1000 + i, t0 + 99_999.0, None, 999)
            for i, (k, v) in enumerate(zip(keys[:n_import], a[:n_import], strict=True))]
    return c, assignments, adj, a, b


def test_progress_json_gives_numbers_equal_to_an_independent_kappa() -> None:
    c, assignments, adj, a, b = _case()
    figs = figures(c, assignments, adj, [], n_resamples=1000, seed=5)
    out = json.loads(json_text(figures_json(figs, n_resamples=1000, seed=5)))
    assert (out["resamples"], out["seed"]) == (1000, 5)
    alice, bob = out["adjudicators"]
    assert alice["adjudicator"] == "alice" and isinstance(alice["assigned"], int)
    assert alice["decided"] == alice["assigned"] == len(a) and alice["progress"] == 1.0
    k = alice["kappa_cohen"]
    assert isinstance(k["estimate"], float) and k["estimate"] == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    assert k["low"] < k["estimate"] < k["high"]
    assert k["strata"].startswith("stratified by lexelt")  # how the instances were resampled
    assert bob["kappa_cohen"]["estimate"] == pytest.approx(k["estimate"], abs=1e-12)
    assert alice["median_seconds_per_decision"] == pytest.approx(30.0)
    assert alice["decisions_per_hour"] == pytest.approx(120.0)
    assert alice["overturn_rate"] == 0.0 and alice["reasons"] == []


def test_progress_seed_sets_the_intervals() -> None:
    c, assignments, adj, _, _ = _case()

    def ends(seed: int) -> tuple[float, float]:
        f = figures(c, assignments, adj, [], n_resamples=300, seed=seed)[0]
        return f.cohen.low, f.cohen.high

    assert ends(3) == ends(3)
    assert ends(3) != ends(4)


def test_an_import_does_not_count_as_adjudication_speed() -> None:
    c, assignments, adj, _, _ = _case(n_import=20)
    alice = figures(c, assignments, adj, [], n_resamples=0)[0]
    assert alice.decisions == len(assignments) // 2 + 20
    assert alice.per_hour == pytest.approx(120.0) and alice.median_seconds == pytest.approx(30.0)
