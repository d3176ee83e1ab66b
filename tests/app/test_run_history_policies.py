"""The window's run history scores the stored runs under every policy (#25 gap 2), as ``compare``
scores the same files against the same gold (the CLI is the oracle; it is itself checked against
scorer2 and the WSD framework's scorer elsewhere)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.cli.entry import main
from hieradjudicate.core.errors import HieradjError
from tests.conftest import DEMO

ANN = ("annotator_ann.key", "annotator_ben.key", "annotator_cho.key")
RUNS = (("lesk", DEMO / "system_lesk.ans"), ("neural", DEMO / "system_neural.ans"))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("history") / "demo.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ANN:
        args += ["--annotations", str(DEMO / name)]
    assert main(args) == 0
    assert main(["project", "resolve-agreed", str(path)]) == 0
    for name, f in RUNS:
        assert main(["project", "add-run", str(path), f"{name}={f}"]) == 0
    return path


@pytest.mark.parametrize("policy", ["leaf", "fine", "coarse", "mixed"])
def test_history_equals_compare_under_each_policy(project: Path, capsys, policy: str) -> None:
    from hieradjudicate.app.runs import run_history
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.core.compare.comparison import correct_matrix

    capsys.readouterr()
    assert main(["compare", "--gold", str(project), "--inventory", str(DEMO / "inventory.txt"), "--policy", policy,
                 *[a for n, f in RUNS for a in ("--system", f"{n}={f}")], "--shuffles", "100", "--resamples", "20",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    t = out["tests"]["all instances"]["all instances"][0]
    with Session.open(project, read_only=True) as s:
        hist = run_history(s, policy)
    assert [h.name for h in hist] == ["lesk", "neural"]
    for m in ("precision", "recall", "f1"):
        assert getattr(hist[0], m) == pytest.approx(t[m]["a"], abs=1e-12), m
        assert getattr(hist[1], m) == pytest.approx(t[m]["b"], abs=1e-12), m
    # per instance: the same gained/lost as compare's McNemar counts
    right = correct_matrix(np.vstack([hist[0].score, hist[1].score]))
    assert (int((right[0] & ~right[1]).sum()), int((right[1] & ~right[0]).sum())) == \
        (t["mcnemar"]["a_only"], t["mcnemar"]["b_only"])
    assert hist[0].instances.min() >= 0  # every scored instance found in the project


def test_policies_differ_and_unknown_is_refused(project: Path) -> None:
    from hieradjudicate.app.runs import run_history
    from hieradjudicate.app.session.session import Session

    with Session.open(project, read_only=True) as s:
        f1 = {p: [h.f1 for h in run_history(s, p)] for p in ("leaf", "fine", "coarse", "mixed")}
        with pytest.raises(HieradjError, match="expected one of leaf, fine, coarse, mixed"):
            run_history(s, "strict")
    assert f1["fine"] != f1["coarse"]  # the demo's hierarchy makes them differ: the policy is applied
