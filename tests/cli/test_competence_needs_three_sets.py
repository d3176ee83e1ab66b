"""Dawid & Skene (and MACE) are refused, before any iteration, where no instance has labels from
three sets (their figures are then not identifiable: Kruskal 1977), and every caller says why
instead of running them; three sets still run."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main
from hieradjudicate.core.crowd.competence import dawid_skene, sets_per_instance
from hieradjudicate.core.errors import NotIdentifiable
from tests.crowd import crowd_project

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
TWO = ["--inventory", str(DEMO / "inventory.txt"), "--annotations", str(DEMO / "annotator_ann.key"),
       "--annotations", f"ben={DEMO / 'annotator_ben.key'}"]
WSD = Path(os.environ.get("HIERADJ_REALDATA", "/nonexistent")) / "wsdeval"


def test_core_refuses_two_raters_per_instance_before_any_em_step() -> None:
    inst = np.array([0, 0, 1, 1, 2, 2, 3])
    rater = np.array([0, 1, 0, 2, 1, 2, 0])  # three raters, never three on one instance
    leaf = np.array([0, 1, 0, 0, 1, 1, 0])
    steps: list[int] = []
    assert sets_per_instance(inst, rater) == 2
    with pytest.raises(NotIdentifiable, match=r"at most 2 \(sets: a, b, c\)"):
        dawid_skene(inst, rater, None, np.zeros(4, np.int64), np.array([2]), leaf=leaf, K=2,
                    names=["a", "b", "c"], progress=lambda k, n: steps.append(k))
    assert steps == []
    # one instance with all three raters: identifiable, it runs
    res = dawid_skene(np.r_[inst, 3, 3], np.r_[rater, 1, 2], None, np.zeros(4, np.int64), np.array([2]),
                      leaf=np.r_[leaf, 0, 0], K=2)
    assert res.iterations >= 1 and len(res.workers) == 3


def test_cli_two_sets_exit_1_with_the_reason(capsys) -> None:
    assert main(["competence", *TWO]) == 1
    err = capsys.readouterr().err
    assert ("Dawid & Skene needs three or more annotator sets on an instance to tell their errors apart "
            "(Kruskal 1977); here every instance has at most 2 (sets: annotator_ann, ben). Add a set.") in err
    assert "Traceback" not in err and "internal error" not in err


def test_cli_mace_on_two_sets_is_refused_too(capsys) -> None:
    assert main(["competence", *TWO, "--model", "mace"]) == 1
    err = capsys.readouterr().err
    assert ("MACE needs three or more annotator sets on an instance to tell their competences apart "
            "(Kruskal 1977); here every instance has at most 2 (sets: annotator_ann, ben). Add a set.") in err


@pytest.mark.parametrize("model", ["ds", "mace"])
def test_cli_three_sets_still_run(capsys, model: str) -> None:
    assert main(["competence", *TWO, "--annotations", f"cho={DEMO / 'annotator_cho.key'}",
                 "--format", "csv", "--model", model]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4


@pytest.mark.skipif(not WSD.is_dir(), reason="needs HIERADJ_REALDATA (SemEval-2015)")
def test_semeval2015_gold_and_lesk_refused_and_with_resnik_converges(capsys) -> None:
    base = ["competence", "--inventory", "/usr/share/wordnet", "--include-systems",
            "--annotations", f"gold={WSD / 'semeval2015.gold.key.txt'}",
            "--annotations", f"lesk={WSD / 'semeval2015.lesk_example.key.txt'}"]
    if not Path("/usr/share/wordnet").is_dir():
        pytest.skip("needs WordNet in /usr/share/wordnet")
    assert main(base) == 1
    assert "at most 2 (sets: gold, lesk)" in capsys.readouterr().err
    assert main([*base, "--annotations", f"resnik={WSD / 'semeval2015.resnik_example.key.txt'}",
                 "--format", "json"]) == 0
    assert '"converged": true' in capsys.readouterr().out


def test_report_section_says_why_in_place(tmp_path, capsys) -> None:
    out = tmp_path / "r.html"
    assert main(["report", *TWO, "-o", str(out), "--resamples", "0"]) == 0
    html = out.read_text(encoding="utf-8")
    section = html.split('<section id="competence">', 1)[1].split("</section>", 1)[0]
    assert "Not estimated: Dawid &amp; Skene needs three or more annotator sets on an instance" in section
    assert "(sets: annotator_ann, ben)" in section
    assert "no competence figures: Dawid & Skene needs three" in capsys.readouterr().err


def test_report_of_a_two_per_item_crowd_is_refused_too(tmp_path) -> None:
    path = crowd_project(tmp_path / "c.hadj", 5, per_item=2)  # five sets, two on every instance
    out = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(out), "--resamples", "0"]) == 0
    assert "here every instance has at most 2 (sets: " in out.read_text(encoding="utf-8")
