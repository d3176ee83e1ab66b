"""`agree` on all-words data (a lexelt per lemma, most of one or two instances) says that its kappas and
alphas rest on chance agreement estimated from a handful of labels -- as the dashboard and the report
already did -- and says nothing of the kind on lexical-sample data."""

from __future__ import annotations

import json

from hieradjudicate.cli.entry import main
from tests.cli.test_agree_interval_on_all_words_data import DEMO, _semeval_args


def test_all_words_agreement_says_its_lexelts_are_too_small_for_chance(capsys) -> None:
    assert main(["agree", *_semeval_args(), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    thin = out["thin_lexelts"]
    # the lexelts of the instances two sets or more answered, counted independently of the product
    per_lexelt = {k: v["n"] for k, v in _by_lexelt(capsys).items()}
    small = [n for n in per_lexelt.values() if 0 < n < 10]
    assert (thin["lexelts"], thin["of_lexelts"], thin["instances"], thin["of_instances"]) == (
        len(small), len(per_lexelt), sum(small), sum(per_lexelt.values()))
    assert thin["instances"] * 2 >= thin["of_instances"] and thin["note"]
    assert main(["agree", *_semeval_args()]) == 0
    text = capsys.readouterr().out
    assert (f"Note: {thin['lexelts']} of {thin['of_lexelts']} lexelts answered by two sets or more have fewer "
            "than 10 instances") in text
    assert "so every kappa and alpha rests on too few instances per lexelt to mean much." in text


def _by_lexelt(capsys) -> dict:
    assert main(["agree", *_semeval_args(), "--by-lexelt", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)["by_lexelt"]


def test_lexical_sample_agreement_has_no_such_note(capsys) -> None:
    args = ["--inventory", str(DEMO / "inventory.txt")]
    for f in sorted(DEMO.glob("annotator_*.key")):
        args += ["--annotations", str(f)]
    assert main(["agree", *args, "--format", "json"]) == 0
    thin = json.loads(capsys.readouterr().out)["thin_lexelts"]
    assert thin["lexelts"] == 0 and thin["note"] is None
    assert main(["agree", *args]) == 0
    assert "Note:" not in capsys.readouterr().out
