"""The regression view's sense depth and category under every policy (#25 gap 1), end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from tests.conftest import DEMO

ANN = ("annotator_ann.key", "annotator_ben.key", "annotator_cho.key")


def run_json(capsys, *args: str) -> dict:
    assert main([*args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("breakdowns") / "demo.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ANN:
        args += ["--annotations", str(DEMO / name)]
    assert main(args) == 0
    assert main(["project", "resolve-agreed", str(path)]) == 0
    assert main(["project", "add-run", str(path), f"lesk={DEMO / 'system_lesk.ans'}"]) == 0
    return path


def _expected(project: Path, instances: list[dict]) -> tuple[dict, dict]:
    """Per change, the count by category and by the depth of the deepest gold tag, from the project."""
    from hieradjudicate.app.dashboard.dashboard import Dashboard
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.core.agreement.granularity import CATEGORY_NAMES

    with Session.open(project, read_only=True) as s:
        worst = Dashboard(s.corpus).worst_category
        cat = {k: (CATEGORY_NAMES[c] if c >= 0 else "fewer than two annotators")
               for k, c in zip(s.instances(), worst.tolist())}
        inv = s.corpus.inventory
        gold = {(r.lexelt, r.instance): r.tags for r in s.decisions if r.status == "resolved"}
        want_cat: dict = {}
        want_depth: dict = {}
        for c in instances:
            key = (c["lexelt"], c["instance"])
            d = str(max(int(inv.node_depth[inv.lookup(key[0], t)]) for t in gold[key]))
            for table, label in ((want_cat, cat[key]), (want_depth, d)):
                table.setdefault(label, {"gained": 0, "lost": 0})[c["change"]] += 1
    return want_cat, want_depth


@pytest.mark.parametrize("policy", ["leaf", "fine", "coarse", "mixed"])
def test_depth_and_category_under_every_policy(project: Path, capsys, tmp_path: Path, policy: str) -> None:
    out = run_json(capsys, "compare", "--gold", str(project), "--inventory", str(DEMO / "inventory.txt"),
                   "--policy", policy, "--system", f"neural={DEMO / 'system_neural.ans'}",
                   "--baseline", "lesk", "--shuffles", "200", "--resamples", "50")
    reg = out["regression"][0]
    assert reg["gained"] + reg["lost"] > 0 and out["regression_notes"] == []
    want_cat, want_depth = _expected(project, reg["instances"])
    got = {g: {k: v for k, v in reg["by"][g].items() if v["gained"] or v["lost"]} for g in ("category", "sense depth")}
    assert got["category"] == want_cat
    assert got["sense depth"] == want_depth
    # a gold file with the project named: the same category counts
    gold = tmp_path / "gold.key"
    assert main(["project", "export", str(project), "--format", "senseval", "-o", str(gold)]) == 0
    capsys.readouterr()
    again = run_json(capsys, "compare", "--gold", str(gold), "--inventory", str(DEMO / "inventory.txt"),
                     "--policy", policy, "--system", f"neural={DEMO / 'system_neural.ans'}",
                     "--baseline", "lesk", "--project", str(project), "--shuffles", "200", "--resamples", "50")
    reg2 = again["regression"][0]
    assert {k: v for k, v in reg2["by"]["category"].items() if v["gained"] or v["lost"]} == want_cat
    assert {k: v for k, v in reg2["by"]["sense depth"].items() if v["gained"] or v["lost"]} == want_depth


def test_without_project_or_inventory_each_breakdown_says_why_not(project: Path, capsys, tmp_path: Path) -> None:
    gold = tmp_path / "gold.key"
    assert main(["project", "export", str(project), "--format", "senseval", "-o", str(gold)]) == 0
    capsys.readouterr()
    argv = ["compare", "--gold", str(gold), "--policy", "fine", "--system", f"neural={DEMO / 'system_neural.ans'}",
            "--baseline", str(DEMO / "system_lesk.ans"), "--shuffles", "200", "--resamples", "50"]
    out = run_json(capsys, *argv)
    reg = out["regression"][0]
    assert "sense depth" not in reg["by"] and "category" not in reg["by"]
    notes = out["regression_notes"]
    assert len(notes) == 2 and "no sense inventory was given" in notes[0] and "annotators' labels" in notes[1]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert all(n in text for n in notes)


@pytest.mark.parametrize("policy", ["coarse", "mixed", "leaf"])
def test_open_range_is_joint_under_coarse_and_leaf_and_own_under_mixed(project: Path, capsys, policy: str) -> None:
    """#25 gap 3: coarse and leaf now get the joint range of the difference (checked against
    enumeration in tests/core/test_open_range_coarse.py and test_open_range_tree.py); it lies inside
    the one from each system's own range and is narrower; mixed says it uses each system's own range."""
    argv = ["compare", "--gold", str(project), "--inventory", str(DEMO / "inventory.txt"), "--policy", policy,
            "--system", f"lesk={DEMO / 'system_lesk.ans'}", "--system", f"neural={DEMO / 'system_neural.ans'}",
            "--shuffles", "200", "--resamples", "50"]
    a = run_json(capsys, *argv)["adjudication"]
    joint = policy in ("coarse", "leaf")
    assert a["open"] > 0 and a["joint"] == joint
    pair, narrower = a["pairs"][0], 0
    for m in ("precision", "recall", "f1"):
        ra, rb = a["systems"]["lesk"][m], a["systems"]["neural"][m]
        own = (ra[0] - rb[1], ra[1] - rb[0])
        assert own[0] - 1e-12 <= pair[m]["low"] <= pair[m]["high"] <= own[1] + 1e-12
        narrower += pair[m]["high"] - pair[m]["low"] < own[1] - own[0] - 1e-9
    assert (narrower > 0) == joint
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert ("over the joint outcomes" in text) == joint
    if not joint:
        assert "worked out for the fine, coarse and leaf policies" in text
