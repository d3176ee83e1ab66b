"""The command line as a user runs it: exit codes, JSON keys, one-line errors, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "hieradjudicate", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def demo_sets():
    return ["--inventory", str(DEMO / "inventory.txt"),
            "--annotations", f"ann={DEMO / 'annotator_ann.key'}",
            "--annotations", f"ben={DEMO / 'annotator_ben.key'}",
            "--annotations", f"cho={DEMO / 'annotator_cho.key'}"]


def test_validate_demo_json():
    r = run("validate", *demo_sets(), "--contexts", str(DEMO / "contexts.tsv"), "--format", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["lexelts"] == 8 and out["senses"] > 50
    assert set(out["sets"]) == {"ann", "ben", "cho"}
    assert set(out["sets"]["ann"]) >= {"instances", "multi_tag", "unknown_tags"}
    assert out["errors"] == []


def test_agree_json_matches_api():
    r = run("agree", *demo_sets(), "--format", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {p["a"] + "-" + p["b"] for p in out["pairs"]} == {"ann-ben", "ann-cho", "ben-cho"}
    for p in out["pairs"]:
        assert set(p) >= {"a", "b", "n", "observed", "expected_scott", "kappa_scott", "expected_cohen", "kappa_cohen"}
        k = (p["observed"] - p["expected_cohen"]) / (1 - p["expected_cohen"])
        assert p["kappa_cohen"] == pytest.approx(k, abs=1e-12)
    assert set(out["fleiss"]) >= {"n", "observed", "expected", "kappa"}
    assert set(out["alpha"]) >= {"n_pairable", "value"}
    top = json.loads(run("agree", *demo_sets(), "--granularity", "top", "--format", "json").stdout)
    assert top["fleiss"]["kappa"] != out["fleiss"]["kappa"]


def test_agree_csv_and_usage_error():
    r = run("agree", *demo_sets(), "--format", "csv")
    assert r.returncode == 0 and r.stdout.splitlines()[0].startswith("a,b,n,observed")
    r = run("agree", *demo_sets(), "--granularity", "depth=zero")
    assert r.returncode == 1 and "depth=N" in r.stderr and "Traceback" not in r.stderr
    assert run("agree", "--bogus").returncode == 2


def test_score_demo_json_keys():
    r = run("score", "--inventory", str(DEMO / "inventory.txt"), "--gold", str(DEMO / "annotator_ann.key"),
            "--system", f"lesk={DEMO / 'system_lesk.ans'}", "--format", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    s = out["systems"][0]
    assert out["policy"] == "leaf" and s["name"] == "lesk"
    assert set(s) >= {"name", "precision", "recall", "coverage", "f1", "score_sum", "attempted", "total",
                      "cross_entropy", "zero_score_instances", "per_lexelt"}
    assert s["recall"] == pytest.approx(s["score_sum"] / s["total"])


@pytest.mark.parametrize("policy, expected", [("fine", 0.601), ("coarse", 0.672), ("mixed", 0.647)])
def test_score_senseval_baseline(realdata, policy, expected):
    s3 = realdata / "senseval3"
    r = run("score", "--inventory", str(s3 / "EnglishLS.sensemap"), "--gold", str(s3 / "EnglishLS.test.key"),
            "--system", str(s3 / "answers" / "baseline_responses.txt"), "--policy", policy, "--format", "json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)["systems"][0]
    assert round(s["precision"], 3) == expected and round(s["recall"], 3) == expected


BAD = {
    "empty.key": b"",
    "binary.key": bytes(range(256)) * 4,
    "truncated.key": b"bank.n bank.n.001 1\nbank.n bank.n.002\n",
    "missing.key": b"bank.n\n",
    "weight_text.key": b"bank.n bank.n.001 1/abc\n",
    "weight_negative.key": b"bank.n bank.n.001 1/-0.5\n",
    "weight_nan.key": b"bank.n bank.n.001 1/nan\n",
    "weight_inf.key": b"bank.n bank.n.001 1/inf\n",
    "duplicate.key": b"bank.n bank.n.001 1\nbank.n bank.n.001 2\n",
    "latin1.key": "bank.n bank.n.001 caf\u00e9\n".encode("latin-1"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_validate_bad_annotations(tmp_path, name):
    p = tmp_path / name
    p.write_bytes(BAD[name])
    r = run("validate", "--inventory", str(DEMO / "inventory.txt"), "--annotations", str(p))
    assert r.returncode == 1, (r.stdout, r.stderr)
    text = r.stdout + r.stderr
    assert "Traceback" not in text
    assert name in text
    if name not in ("empty.key", "binary.key"):
        assert f"{name}:" in text and ":1" in text or ":2" in text


INV_BAD = {
    "dup.txt": "# lexelt w.n\n1: a\n1: b\n",
    "badindent.txt": "# lexelt w.n\n1: a\n   1.1: b\n",
    "unknown_parent.tsv": "lexelt\tsense\tparent\tgloss\nw.n\t1\tzz\tg\n",
    "cycle.tsv": "lexelt\tsense\tparent\tgloss\nw.n\t1\t2\tg\nw.n\t2\t1\tg\n",
    "branching.map": "1.1 1 1\n1.2 1 1\n",
    "unknown_lexelt.key": None,
}


@pytest.mark.parametrize("name", sorted(INV_BAD))
def test_validate_bad_inventories(tmp_path, name):
    if INV_BAD[name] is None:  # an annotation lexelt the inventory does not know: reported, exit 1
        p = tmp_path / name
        p.write_text("nosuch.n nosuch.n.1 1\n")
        r = run("validate", "--inventory", str(DEMO / "inventory.txt"), "--annotations", str(p), "--format", "json")
        out = json.loads(r.stdout)
        assert "nosuch.n" in out["unknown_lexelts"]
        return
    p = tmp_path / name
    p.write_text(INV_BAD[name])
    r = run("validate", "--inventory", str(p))
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stdout + r.stderr
    assert name in r.stdout + r.stderr


@pytest.mark.parametrize("which", ["senseval3", "masc", "wsbest"])
def test_validate_real_files(realdata, which):
    if which == "senseval3":
        d = realdata / "senseval3"
        args = ["--inventory", str(d / "EnglishLS.sensemap"), "--inventory", str(d / "EnglishLS.dictionary.xml"),
                "--annotations", str(d / "EnglishLS.test.key"), "--contexts", str(d / "EnglishLS.test.gz")]
    elif which == "masc":
        d = realdata / "masc_amt"
        args = ["--inventory", str(d / "inventory_tree.tsv"), "--annotations", str(d / "masc_amt_labels_wide.tsv.gz")]
    else:
        d = realdata / "wsbest"
        args = ["--inventory", str(d / "inventory_tree.tsv"), "--annotations",
                str(d / "wsbest_selected_senses_per_annotator.tsv"), "--contexts", str(d / "uses.tsv.gz")]
    r = run("validate", *args, "--format", "json")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    out = json.loads(r.stdout)
    assert out["valid"] and not out["errors"]


def test_agree_downward_estimated_from_a_set():
    uni = json.loads(run("agree", *demo_sets(), "--format", "json").stdout)
    est = json.loads(run("agree", *demo_sets(), "--downward", "estimate:ben", "--format", "json").stdout)
    assert est["pairs"][0]["n"] == uni["pairs"][0]["n"]
    assert est["pairs"][0]["observed"] != uni["pairs"][0]["observed"]
    bad = run("agree", *demo_sets(), "--downward", "estimate:nobody")
    assert bad.returncode == 1 and "no annotation set named 'nobody'" in bad.stderr


def test_agree_ci_brackets_the_estimates():
    out = json.loads(run("agree", *demo_sets(), "--ci", "200", "--format", "json").stdout)
    ci = out["ci"]
    assert ci["resamples"] == 200
    for p, c in zip(out["pairs"], ci["pairs"]):
        assert c["kappa_cohen"][0] <= p["kappa_cohen"] <= c["kappa_cohen"][1]
    assert ci["fleiss"][0] <= out["fleiss"]["kappa"] <= ci["fleiss"][1]
    assert ci["alpha"][0] <= out["alpha"]["value"] <= ci["alpha"][1]
