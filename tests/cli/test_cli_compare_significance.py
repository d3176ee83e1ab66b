"""``compare`` with paired tests, stored runs, the regression view and a gold still being
adjudicated (#25 items 1-3), end to end through the command line."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from hieradjudicate.io.store import schema as store_schema
from hieradjudicate.io.store.project_store import Store
from hieradjudicate.io.store.runs import runs
from tests.conftest import DEMO, skip_without_realdata
from tests.cli.test_wsd_framework import framework_scorer

ANN = ("annotator_ann.key", "annotator_ben.key", "annotator_cho.key")


def run_json(capsys, *args: str) -> dict:
    assert main([*args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_semeval2015_lesk_and_resnik_the_test_sees_the_f1_difference(capsys) -> None:
    """The issue's example: 360 and 365 correct of 1,022 (McNemar: no difference), but Resnik
    answers fewer and its F1 is 0.050 higher, which the test on F1 sees."""
    sm = pytest.importorskip("statsmodels.stats.contingency_tables")
    d = skip_without_realdata("wsdeval") / "wsdeval"
    out = run_json(capsys, "compare", "--gold", str(d / "semeval2015.gold.key.txt"), "--policy", "fine",
                   "--system", f"lesk={d / 'semeval2015.lesk_example.key.txt'}",
                   "--system", f"resnik={d / 'semeval2015.resnik_example.key.txt'}")
    t = out["tests"]["all instances"]["all instances"][0]
    assert (t["a"], t["b"], t["n"]) == ("lesk", "resnik", 1022)
    mc = t["mcnemar"]
    assert mc["a_only"] - mc["b_only"] == 360 - 365
    assert out["accuracy"]["lesk"] * 1022 == pytest.approx(360) and out["accuracy"]["resnik"] * 1022 == pytest.approx(365)
    both = round(out["pairs"][0]["both_correct"] * 1022)
    table = [[both, mc["a_only"]], [mc["b_only"], 1022 - both - mc["a_only"] - mc["b_only"]]]
    assert mc["p"] == pytest.approx(sm.mcnemar(table, exact=True).pvalue, rel=1e-9)
    assert mc["p"] > 0.5  # no difference in correctness
    for system, name in (("lesk", "a"), ("resnik", "b")):  # the figures are the framework scorer's
        p, r, f = framework_scorer(d / "semeval2015.gold.key.txt", d / f"semeval2015.{system}_example.key.txt")
        assert (t["precision"][name], t["recall"][name], t["f1"][name]) == pytest.approx((p, r, f), abs=1e-12)
    assert round(-t["f1"]["difference"], 3) == 0.050
    assert t["f1"]["p_randomization"] < 0.05 and t["f1"]["ci"][1] < 0  # F1: Resnik really higher
    assert t["recall"]["p_randomization"] > 0.5 and t["recall"]["ci"][0] < 0 < t["recall"]["ci"][1]
    assert t["holm_over_pairs"] == 0 and out["test_settings"]["shuffles"] == 10_000


def test_all_file_is_tested_per_data_set_and_csv_has_a_row_per_group(capsys, tmp_path: Path) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    lines = (d / "ALL.lesk_example.key.txt").read_text().splitlines()
    other = tmp_path / "other.key"
    other.write_text("\n".join(x for k, x in enumerate(lines) if k % 4) + "\n")  # a quarter unanswered
    args = ["compare", "--gold", str(d / "ALL.gold.key.txt"), "--policy", "fine", "--shuffles", "2000",
            "--system", f"lesk={d / 'ALL.lesk_example.key.txt'}", "--system", f"fewer={other}"]
    out = run_json(capsys, *args)
    sets = out["tests"]["data set"]
    assert sorted(sets) == ["semeval2007", "semeval2013", "semeval2015", "senseval2", "senseval3"]
    assert sum(v[0]["n"] for v in sets.values()) == 7253
    assert sets["semeval2015"][0]["n"] == 1022
    # the instances 'fewer' left out were right or wrong for lesk: only lesk can gain
    assert out["tests"]["all instances"]["all instances"][0]["mcnemar"]["b_only"] == 0
    assert main([*args, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 1 + 5 + len(out["tests"]["part of speech"])
    assert rows[0]["grouping"] == "all instances" and rows[0]["kappa"] != "" and rows[1]["kappa"] == ""
    assert float(rows[0]["recall_difference"]) > 0 and rows[0]["shuffles"] == "2000"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs") / "demo.hadj"
    args = ["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt")]
    for name in ANN:
        args += ["--annotations", str(DEMO / name)]
    assert main(args) == 0
    assert main(["project", "resolve-agreed", str(path)]) == 0
    assert main(["project", "add-run", str(path), f"lesk={DEMO / 'system_lesk.ans'}", "--note", "first"]) == 0
    assert main(["project", "add-run", str(path), f"neural={DEMO / 'system_neural.ans'}"]) == 0
    return path


def test_add_run_stores_name_date_note_and_refuses_mistakes(project: Path, capsys, tmp_path: Path) -> None:
    capsys.readouterr()
    listed = run_json(capsys, "project", "runs", str(project))
    assert [(r["name"], r["note"]) for r in listed] == [("lesk", "first"), ("neural", "")]
    assert listed[0]["added_at"] <= listed[1]["added_at"] and listed[0]["added_at"].startswith("20")
    assert main(["project", "add-run", str(project), f"lesk={DEMO / 'system_neural.ans'}"]) == 1
    assert "already stored" in capsys.readouterr().err
    assert main(["project", "add-run", str(project), str(DEMO / "system_neural.ans")]) == 1
    assert "expected NAME=FILE" in capsys.readouterr().err
    assert main(["project", "add-run", str(project), f"inv={DEMO / 'inventory.txt'}"]) == 1
    assert "inventory.txt" in capsys.readouterr().err
    stranger = tmp_path / "stranger.key"
    stranger.write_text("plant.n plant.n.1 1\n")
    assert main(["project", "add-run", str(project), f"x={stranger}"]) == 1
    assert "none of its 1 answered instance(s)" in capsys.readouterr().err
    assert main(["project", "add-run", str(project), f"y={DEMO / 'system_lesk.ans'}", "--note", "a\x1bb"]) == 1
    assert "note holds a control character (0x1b)" in capsys.readouterr().err
    with Store.open(project, read_only=True) as s:
        assert [r.name for r in runs(s)] == ["lesk", "neural"]  # nothing of the refusals was stored


def test_baseline_from_the_project_gives_gained_and_lost(project: Path, capsys, tmp_path: Path) -> None:
    gold = tmp_path / "gold.key"
    assert main(["project", "export", str(project), "--format", "senseval", "-o", str(gold)]) == 0
    capsys.readouterr()
    base = ["compare", "--gold", str(gold), "--inventory", str(DEMO / "inventory.txt"), "--policy", "fine",
            "--system", f"neural={DEMO / 'system_neural.ans'}"]
    out = run_json(capsys, *base, "--baseline", "lesk", "--project", str(project))
    direct = run_json(capsys, "compare", "--gold", str(gold), "--inventory", str(DEMO / "inventory.txt"),
                      "--policy", "fine", "--system", f"lesk={DEMO / 'system_lesk.ans'}",
                      "--system", f"neural={DEMO / 'system_neural.ans'}")
    assert out["baseline"] == "lesk" and out["systems"] == ["lesk", "neural"]
    assert out["tests"]["all instances"] == direct["tests"]["all instances"]  # the stored copy is the file
    reg = out["regression"][0]
    t = out["tests"]["all instances"]["all instances"][0]
    assert (reg["gained"], reg["lost"]) == (t["mcnemar"]["b_only"], t["mcnemar"]["a_only"])
    assert sum(v["gained"] for v in reg["by"]["part of speech"].values()) == reg["gained"]
    changes = {(c["lexelt"], c["instance"]): c for c in reg["instances"]}
    assert len(changes) == reg["gained"] + reg["lost"]
    assert all((c["system_score"] == 1.0) == (c["change"] == "gained") for c in changes.values())
    assert [h["name"] for h in out["history"]] == ["lesk", "neural"]
    assert out["history"][1]["f1"] == pytest.approx(out["tests"]["all instances"]["all instances"][0]["f1"]["b"])
    assert main([*base, "--baseline", "lesk", "--project", str(project), "--format", "csv",
                 "--csv-table", "changes"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == len(changes) and rows[0]["baseline"] == "lesk"
    # a file as the baseline; and the refusals
    out = run_json(capsys, *base, "--baseline", str(DEMO / "system_lesk.ans"))
    assert out["baseline"] == "baseline" and out["regression"][0]["gained"] == reg["gained"]
    assert main([*base, "--baseline", "nosuch"]) == 1
    assert "give the project too" in capsys.readouterr().err
    assert main([*base, "--baseline", "nosuch", "--project", str(project)]) == 1
    assert "no stored run named 'nosuch' (stored runs: lesk, neural)" in capsys.readouterr().err
    assert main([*base, "--format", "csv", "--csv-table", "changes"]) == 1
    assert "give --baseline" in capsys.readouterr().err


def test_a_gold_being_adjudicated_says_what_the_figures_rest_on(project: Path, capsys) -> None:
    out = run_json(capsys, "compare", "--gold", str(project), "--inventory", str(DEMO / "inventory.txt"),
                   "--policy", "fine", "--system", f"lesk={DEMO / 'system_lesk.ans'}",
                   "--system", f"neural={DEMO / 'system_neural.ans'}")
    a = out["adjudication"]
    assert a["decided"] == out["instances"] and a["decided"] + a["open"] == a["total"] == 400
    assert 0 < a["open"] < 400 and a["joint"]
    t = out["tests"]["all instances"]["all instances"][0]
    for name, key in (("lesk", "a"), ("neural", "b")):
        lo, hi = a["systems"][name]["recall"]
        decided_recall = t["recall"][key]
        assert lo == pytest.approx(decided_recall * a["decided"] / 400)  # every open instance wrong
        assert hi - lo == pytest.approx(a["systems"][name]["answered_open"] / 400)
    pair = a["pairs"][0]
    for m in ("precision", "recall", "f1"):  # the joint range lies inside the one from each system's own
        ra, rb = a["systems"]["lesk"][m], a["systems"]["neural"][m]
        assert ra[0] - rb[1] - 1e-12 <= pair[m]["low"] <= pair[m]["high"] <= ra[1] - rb[0] + 1e-12
        assert pair[m]["observed"] == pytest.approx(t[m]["difference"])
    assert main(["compare", "--gold", str(project), "--inventory", str(DEMO / "inventory.txt"), "--policy",
                 "fine", "--system", f"lesk={DEMO / 'system_lesk.ans'}",
                 "--system", f"neural={DEMO / 'system_neural.ans'}"]) == 0
    text = capsys.readouterr().out
    assert f"rest on {a['decided']} decided instance(s) of 400; {a['open']} open" in text


def test_a_version_3_project_gains_the_runs_table(tmp_path: Path) -> None:
    path = tmp_path / "v3.hadj"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    store_schema.init_schema(conn, target=3)
    conn.execute("COMMIT")
    conn.close()
    with Store.open(path, read_only=True) as ro:  # read-only: not migrated, no runs, no error
        assert runs(ro) == []
    with Store.open(path) as s:
        assert s.schema_version == store_schema.SCHEMA_VERSION == 4
        assert runs(s) == []
    assert (tmp_path / "v3.hadj.bak-v3").exists()


def test_stored_run_bytes_are_checked(project: Path, tmp_path: Path, capsys) -> None:
    from hieradjudicate.io.store.runs import run_bytes

    copy = tmp_path / "copy.hadj"
    copy.write_bytes(project.read_bytes())
    with Store.open(copy) as s:
        assert run_bytes(s, "lesk") == (DEMO / "system_lesk.ans").read_bytes()
        s.conn.execute("UPDATE runs SET sha256 = ? WHERE name = 'lesk'", ("0" * 64,))
    with Store.open(copy) as s:
        from hieradjudicate.core.errors import ProjectError

        with pytest.raises(ProjectError, match="stored run 'lesk' is damaged"):
            run_bytes(s, "lesk")


def test_gained_and_lost_by_lexelt_depth_and_category(project: Path, capsys) -> None:
    """Leaf policy against the project's gold: gained/lost per lexelt, per sense depth of the gold
    (the inventory's tree) and per agreement category (the project's annotators), each summing up."""
    from hieradjudicate.app.dashboard.dashboard import Dashboard
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.core.agreement.granularity import CATEGORY_NAMES

    out = run_json(capsys, "compare", "--gold", str(project), "--inventory", str(DEMO / "inventory.txt"),
                   "--system", f"neural={DEMO / 'system_neural.ans'}", "--baseline", "lesk", "--shuffles", "500")
    reg = out["regression"][0]
    for grouping in ("lexelt", "sense depth", "category", "part of speech"):
        by = reg["by"][grouping]
        assert sum(v["gained"] for v in by.values()) == reg["gained"], grouping
        assert sum(v["lost"] for v in by.values()) == reg["lost"], grouping
    with Session.open(project, read_only=True) as s:
        worst = Dashboard(s.corpus).worst_category
        cat = {k: CATEGORY_NAMES[c] for k, c in zip(s.instances(), worst.tolist()) if c >= 0}
        depth = s.corpus.inventory.node_depth
        gold = {(r.lexelt, r.instance): r.tags for r in s.decisions if r.status == "resolved"}
        inv = s.corpus.inventory
        want_cat: dict[str, int] = {}
        want_depth: dict[str, int] = {}
        for c in (c for c in reg["instances"] if c["change"] == "gained"):
            key = (c["lexelt"], c["instance"])
            want_cat[cat[key]] = want_cat.get(cat[key], 0) + 1
            d = max(int(depth[inv.lookup(key[0], t)]) for t in gold[key])
            want_depth[str(d)] = want_depth.get(str(d), 0) + 1
    assert {k: v["gained"] for k, v in reg["by"]["category"].items() if v["gained"]} == want_cat
    assert {k: v["gained"] for k, v in reg["by"]["sense depth"].items() if v["gained"]} == want_depth


def test_by_lexelt_tests_every_lexelt(capsys) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    out = run_json(capsys, "compare", "--gold", str(d / "semeval2015.gold.key.txt"), "--policy", "fine",
                   "--system", f"lesk={d / 'semeval2015.lesk_example.key.txt'}", "--by-lexelt", "--shuffles", "1000",
                   "--system", f"resnik={d / 'semeval2015.resnik_example.key.txt'}")
    lex = out["tests"]["lexelt"]
    assert sum(v[0]["n"] for v in lex.values()) == 1022 and len(lex) == len(out["by_lexelt"])
    gold = [ln.split() for ln in (d / "semeval2015.gold.key.txt").read_text().splitlines() if ln.strip()]
    from hieradjudicate.io.annotations.wsdkey import lexelt_of

    per: dict[str, int] = {}
    for _, key, *_ in gold:
        per[lexelt_of(key)] = per.get(lexelt_of(key), 0) + 1
    assert {k: v[0]["n"] for k, v in lex.items()} == per


def test_one_system_has_no_pair_to_test(capsys) -> None:
    gold, lesk = DEMO / "annotator_ann.key", DEMO / "system_lesk.ans"
    args = ["compare", "--gold", str(gold), "--system", f"lesk={lesk}", "--inventory", str(DEMO / "inventory.txt")]
    assert main(args) == 0
    assert "paired tests: one system only" in capsys.readouterr().out
    out = run_json(capsys, *args)
    assert out["tests"]["all instances"]["all instances"] == []


def test_a_store_without_sqlite_has_no_runs_and_says_so() -> None:
    """A server project (PostgreSQL store): no runs table; adding one says where runs are kept."""
    from types import SimpleNamespace

    from hieradjudicate.core.errors import ProjectError
    from hieradjudicate.io.store.runs import add_run

    server = SimpleNamespace(_conn=object(), path="postgresql://host/p", conn=None)
    assert runs(server) == []
    with pytest.raises(ProjectError, match="kept in a .hadj project file; this project is on a server"):
        add_run(server, "x", DEMO / "system_lesk.ans")
