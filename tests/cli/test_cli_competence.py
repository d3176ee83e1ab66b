"""``hieradjudicate competence`` on the demo: per-set competence, difficulty, formats, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
FILES = ["--inventory", str(DEMO / "inventory.txt"), "--annotations", str(DEMO / "annotator_ann.key"),
         "--annotations", f"ben={DEMO / 'annotator_ben.key'}", "--annotations", f"cho={DEMO / 'annotator_cho.key'}"]


def test_json_names_every_set_with_competence_and_spread(capsys) -> None:
    assert main(["competence", *FILES, "--format", "json", "--instances", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {s["set"] for s in out["sets"]} == {"annotator_ann", "ben", "cho"}
    for s in out["sets"]:
        assert 0 < s["competence"] <= 1 and 0 < s["stderr"] < 0.1 and s["labels"] > 300
    assert out["converged"] and out["instances"] == 400
    ent = [r["entropy_bits"] for r in out["most_uncertain"]]
    assert ent == sorted(ent, reverse=True) and len(ent) == 3
    assert "Dawid & Skene" in out["method"]


def test_text_and_csv(capsys) -> None:
    assert main(["competence", *FILES]) == 0
    text = capsys.readouterr().out
    assert "competence" in text and "Difficulty" in text and "Dawid & Skene" in text
    assert main(["competence", *FILES, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "set,labels,competence,stderr" and len(lines) == 4


def test_one_annotator_is_refused(capsys) -> None:
    assert main(["competence", "--inventory", str(DEMO / "inventory.txt"),
                 "--annotations", str(DEMO / "annotator_ann.key"),
                 "--annotations", f"lesk={DEMO / 'system_lesk.ans'}:system"]) == 1
    assert "needs three or more annotator sets labelling an instance (Kruskal 1977)" in capsys.readouterr().err


def test_mace_model_prints_theta_from_core_mace(capsys) -> None:

    from hieradjudicate.app.loading.load import load
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.core.crowd.mace import mace

    assert main(["competence", *FILES, "--format", "json", "--model", "mace"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"] == "MACE" and "Hovy" in out["method"]
    c = load([str(DEMO / "inventory.txt")], [AnnotationSpec.parse(str(DEMO / "annotator_ann.key")),
                                             AnnotationSpec.parse(f"ben={DEMO / 'annotator_ben.key'}"),
                                             AnnotationSpec.parse(f"cho={DEMO / 'annotator_cho.key'}")], []).corpus
    inst, rater, P, chosen = c.long_form()
    r = mace(inst, rater, P, c.inst_lexelt, c.inventory.n_leaves)
    want = {c.sets[chosen[int(w)]].name: float(a) for w, a in zip(r.workers, r.accuracy)}
    assert {s["set"]: s["competence"] for s in out["sets"]} == pytest.approx(want, abs=1e-12)
    assert main(["competence", *FILES, "--model", "mace"]) == 0
    assert "+/- s.d." in capsys.readouterr().out


def test_max_iter_and_tol_are_options_and_not_converging_is_said(capsys) -> None:
    """#24 item 1: the stopping rule is the user's to set; a run cut short says so."""
    assert main(["competence", *FILES, "--format", "json", "--max-iter", "2"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert out["iterations"] == 2 and out["converged"] is False and out["last_change"] > 0
    assert "without converging" in cap.err and "--max-iter" in cap.err
    assert "at most 2 EM steps per lexelt" in out["method"]
    assert main(["competence", *FILES, "--format", "json", "--tol", "1e-6"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converged"] is True and out["distance_from_fixed_point"] < 1e-6
    assert "estimated within 1e-06 of the fixed point" in out["method"]
    for model in ("ds", "mace"):
        assert main(["competence", *FILES, "--model", model, "--max-iter", "3", "--tol", "0"]) == 0
        cap = capsys.readouterr()
        assert "3 iterations, NOT converged" in cap.out and "without converging" in cap.err
    with pytest.raises(SystemExit):
        main(["competence", *FILES, "--tol", "-1"])
    assert "expected a number >= 0" in capsys.readouterr().err


def test_a_run_whose_confirming_probe_the_bound_cuts_short_says_not_converged_without_a_distance(capsys) -> None:
    """On the demo Dawid & Skene settles after 44 EM steps, a probe escapes to a higher log-likelihood
    (192 steps) and the next comes back: 100 steps in all reach neither the escape's end nor its
    confirmation, so the run is not converged, with every step counted and no distance claimed."""
    assert main(["competence", *FILES, "--format", "json", "--max-iter", "100"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert out["converged"] is False and out["iterations"] == 100
    assert out["distance_from_fixed_point"] is None
    assert "no fixed point confirmed where it stopped;" in cap.err
    assert "without converging on 8 of 8 lexelts (" in cap.err  # stopped by the bound together: none confirmed
    assert len(out["lexelts_not_converged"]) == 8
    assert "restarts included" in out["method"]
    assert main(["competence", *FILES, "--max-iter", "100"]) == 0
    assert "100 iterations, NOT converged" in capsys.readouterr().out


def test_csv_with_instances_lists_them(capsys) -> None:
    """#24 item 5: --format csv --instances N wrote the sets only."""
    assert main(["competence", *FILES, "--format", "csv", "--instances", "4"]) == 0
    blocks = capsys.readouterr().out.split("\n\n")
    assert len(blocks) == 2
    assert blocks[0].splitlines()[0] == "set,labels,competence,stderr"
    lines = blocks[1].splitlines()
    assert lines[0] == "lexelt,instance,leaf,posterior,entropy_bits" and len(lines) == 5
    ent = [float(line.rsplit(",", 1)[1]) for line in lines[1:]]
    assert ent == sorted(ent, reverse=True)


def test_mace_competence_is_labelled_as_knowing_not_accuracy(capsys) -> None:
    """#24 item 5: MACE's theta is the probability of knowing the answer, not a share right."""
    assert main(["competence", *FILES, "--model", "mace"]) == 0
    text = capsys.readouterr().out
    assert "P(knows the answer)" in text and "not an accuracy" in text
    assert main(["competence", *FILES, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["measure"] == "competence (expected share right)"
    assert main(["competence", *FILES, "--model", "mace", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "set,labels,p_knows_answer,posterior_sd"


def test_plain_em_runs_dawid_skene_unaccelerated_and_says_so(capsys) -> None:
    """#24 follow-up: SQUAREM by default (fewer EM iterations, the same convergence test), --plain-em
    for crowd-kit's run; both converge to figures that agree far inside their standard errors."""
    assert main(["competence", *FILES, "--format", "json"]) == 0
    fast = json.loads(capsys.readouterr().out)
    assert main(["competence", *FILES, "--format", "json", "--plain-em"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "SQUAREM" in fast["method"] and "plain EM (not accelerated)" in plain["method"]
    assert fast["converged"] and plain["converged"] and fast["iterations"] < plain["iterations"]
    for a, b in zip(fast["sets"], plain["sets"], strict=True):
        # the demo's EM creeps towards a boundary (a confusion probability clipped at 1e-10): the two
        # runs stop at different points of that slow drift, both far inside the standard errors
        assert a["set"] == b["set"] and a["competence"] == pytest.approx(b["competence"], abs=1e-3)
    assert main(["competence", *FILES, "--model", "mace", "--plain-em"]) == 1
    assert "--plain-em applies to Dawid & Skene" in capsys.readouterr().err
