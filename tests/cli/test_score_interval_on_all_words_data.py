"""`score --ci` on all-words data (the WSD framework's semeval2015: 512 lemmas for 1,022 instances) gives an
interval as wide as its instances warrant, and says which lexelts it drew together; the demo's lexical
sample (every lexelt 46 instances or more) keeps one stratum per lexelt."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import hieradjudicate
from hieradjudicate.cli.entry import main
from tests.conftest import skip_without_realdata

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


def test_semeval2015_interval_is_as_wide_as_a_resampling_of_its_instances(capsys) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    gold, system = d / "semeval2015.gold.key.txt", d / "semeval2015.resnik_example.key.txt"
    assert main(["score", "--gold", str(gold), "--system", f"resnik={system}", "--ci", "1000",
                 "--ci-method", "percentile", "--format", "json"]) == 0
    ci = json.loads(capsys.readouterr().out)["systems"][0]["ci"]
    assert "lexelts of fewer than 10 instances drawn together as one stratum" in ci["strata"]
    # the test's own resampling of the answered instances, one stratum (numpy only)
    keys = {p[0]: set(p[1:]) for p in (ln.split() for ln in gold.read_text().splitlines()) if p}
    ans = [ln.split() for ln in system.read_text().splitlines() if ln.strip()]
    s = np.array([sum(t in keys[a[0]] for t in a[1:]) / len(a[1:]) for a in ans])
    rng = np.random.default_rng(0)
    reps = s[rng.integers(0, s.size, (2000, s.size))].mean(axis=1)
    lo, hi = np.percentile(reps, [2.5, 97.5])
    width = ci["precision"][1] - ci["precision"][0]
    assert 0.8 * (hi - lo) <= width <= 1.2 * (hi - lo), (ci["precision"], (lo, hi))


def test_the_demos_lexelts_keep_their_own_strata(capsys) -> None:
    assert main(["score", "--inventory", str(DEMO / "inventory.txt"), "--gold", str(DEMO / "annotator_ann.key"),
                 "--system", f"lesk={DEMO / 'system_lesk.ans'}", "--ci", "1000"]) == 0
    out = capsys.readouterr().out
    assert "1000 resamples, stratified by lexelt)" in out
