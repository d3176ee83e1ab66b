"""`agree --ci` on all-words data (the WSD framework's semeval2015: 512 lemmas for 1,022 instances) resamples
the lexelts of fewer than 10 instances whole, as one stratum, and says so; lexical-sample data (the demo,
MASC: every lexelt of 10 instances or more) keep the intervals they had (the demo's to the bit, MASC's to its last bits)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main
from tests.conftest import skip_without_realdata

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


def _agree(capsys, *args: str) -> dict:
    assert main(["agree", *args, "--ci", "1000", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _semeval_args() -> list[str]:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    return ["--annotations", f"gold={d / 'semeval2015.gold.key.txt'}",
            "--annotations", f"lesk={d / 'semeval2015.lesk_example.key.txt'}:annotator",
            "--annotations", f"resnik={d / 'semeval2015.resnik_example.key.txt'}:annotator"]


def test_semeval2015_agreement_intervals_hold_their_estimates_and_name_the_pooled_lexelts(capsys) -> None:
    out = _agree(capsys, *_semeval_args())
    ci = out["ci"]
    assert "lexelts of fewer than 10 instances resampled whole, as one stratum" in ci["strata"]
    # each lexelt resampled alone gave Fleiss [-0.451, -0.435] and alpha [-0.169, -0.157], both beside
    # their estimates (-0.420, -0.146): a lexelt of one instance resampled alone does not vary
    for key, est in (("fleiss", out["fleiss"]["kappa"]), ("alpha", out["alpha"]["value"])):
        lo, hi = ci[key]
        assert lo < est < hi, (key, lo, est, hi)
        assert ci[f"{key}_method"] == "bca"
    assert all("resampled whole" in p["strata"] for p in ci["pairs"])


def test_agree_text_says_how_its_intervals_were_stratified(capsys) -> None:
    assert main(["agree", *_semeval_args(), "--ci", "1000"]) == 0
    text = capsys.readouterr().out
    assert "(Intervals stratified by lexelt; the " in text
    assert "in 3 of 3 pairs, their lexelts of fewer than 10 shared instances likewise" in text


def test_the_demos_agreement_intervals_are_unchanged(capsys) -> None:
    out = _agree(capsys, "--inventory", str(DEMO / "inventory.txt"),
                 *[a for k in ("ann", "ben", "cho") for a in ("--annotations", str(DEMO / f"annotator_{k}.key"))])
    ci = out["ci"]
    assert ci["strata"] == "stratified by lexelt" and {p["strata"] for p in ci["pairs"]} == {"stratified by lexelt"}
    # the intervals before the small lexelts were pooled (seed 20240601, BCa, 1000 resamples)
    assert ci["fleiss"] == [0.7003377092846372, 0.7711300373010198]
    assert ci["alpha"] == [0.7050827315220494, 0.7761624687393094]
    assert [(p["kappa_scott"], p["kappa_cohen"]) for p in ci["pairs"]] == [
        ([0.6929302939074566, 0.7756081077035105], [0.6936224895513937, 0.7758888653090332]),
        ([0.7010041289713246, 0.7825710278872089], [0.7013483766479305, 0.7820161734737329]),
        ([0.6960028244480319, 0.7799428065308376], [0.69730238228531, 0.7799466367031463])]


def test_mascs_agreement_intervals_are_unchanged(capsys) -> None:
    d = skip_without_realdata("masc_amt") / "masc_amt"
    ci = _agree(capsys, "--inventory", str(d / "inventory_tree.tsv"),
                "--annotations", str(d / "masc_amt_labels_wide.tsv.gz"))["ci"]
    assert ci["strata"] == "stratified by lexelt"
    # to the last bits, not to the bit: numpy's vectorised sums of MASC's long arrays group their terms by
    # the CPU's instruction set and the arrays' alignment in memory, so the last bit varies between
    # machines and even between processes of one (on one machine: alpha's lower bound 1.1e-16 below the
    # stored figure in the full suite, 5.5e-17 below in a run of this file alone, Fleiss' equal to it in
    # one, 5.5e-17 above in the other); the demo's short sums above are exact
    assert ci["fleiss"] == pytest.approx([0.28912082157578733, 0.2935561345693899], rel=1e-13, abs=0)
    assert ci["alpha"] == pytest.approx([0.29076994180541765, 0.29516244328498803], rel=1e-13, abs=0)
