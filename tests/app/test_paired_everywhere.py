"""#31 items 2-4 on the real data: the paired tests against a reference gold, and against the gold
imported as decisions, are the figures `hieradjudicate compare` prints (the same seed, the same
groups, either order of the systems), in the dashboard's data, the stored runs' test and the report;
and the report on WSD ALL carries lesk's per-data-set scores as `hieradjudicate score` prints them.

compare is run as a separate process (its own scoring of the files); the window's figures are
computed from the project (the corpus' scoring): two code paths to the scores, one to the tests."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.gold import DecisionTracker
from hieradjudicate.app.report.html import render_report
from hieradjudicate.app.session.session import Session
from hieradjudicate.core.compare.significance import METRICS
from tests.conftest import skip_without_realdata

WORDNET = "/usr/share/wordnet"


def _data() -> Path:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    if not Path(WORDNET, "index.noun").is_file():
        pytest.skip(f"WordNet 3.0 is not installed at {WORDNET} (Debian: apt install wordnet-base)")
    return d


def cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "hieradjudicate", *args], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def compare_json(gold: str, systems: list[tuple[str, Path]], policy: str = "leaf") -> dict:
    args = ["compare", "--inventory", WORDNET, "--gold", gold, "--policy", policy, "--format", "json"]
    for name, path in systems:
        args += ["--system", f"{name}={path}"]
    return json.loads(cli(*args))


def check_equal(view, printed: dict, policy: str) -> int:
    """Every group's tests of the view equal compare's (values, differences, intervals, p-values,
    McNemar); returns how many tests were checked."""
    label = {"all instances": ("all instances", "all instances")}
    checked = 0
    for grouping, by in printed["tests"].items():
        for group, tests in by.items():
            key = group if grouping == "all instances" else f"{grouping} {group}"
            shown = view.groups[policy][label.get(key, (key,))[0]]
            assert len(shown) == len(tests)
            for t, p in zip(shown, tests, strict=True):
                assert (t.a, t.b, t.n) == (p["a"], p["b"], p["n"])
                for m in METRICS:
                    v, q = t.metrics[m], p[m]
                    assert v.a == pytest.approx(q["a"], abs=1e-12) and v.b == pytest.approx(q["b"], abs=1e-12)
                    if q["difference"] is None:
                        assert v.difference is None and v.p_value is None
                        continue
                    assert v.difference == pytest.approx(q["difference"], abs=1e-12)
                    assert [v.low, v.high] == pytest.approx(q["ci"], abs=1e-12)
                    assert v.p_value == q["p_randomization"]
                    assert v.p_holm == q["p_holm"]
                assert (t.mcnemar.a_only, t.mcnemar.b_only) == (p["mcnemar"]["a_only"], p["mcnemar"]["b_only"])
                assert t.mcnemar.p_value == pytest.approx(p["mcnemar"]["p"], rel=1e-12)
                checked += 1
    return checked


@pytest.fixture(scope="module")
def semeval2015(tmp_path_factory) -> tuple[Path, Path, Path, Path]:
    d = _data()
    out = tmp_path_factory.mktemp("s15") / "s15.hadj"
    gold = d / "semeval2015.gold.key.txt"
    lesk, resnik = d / "semeval2015.lesk_example.key.txt", d / "semeval2015.resnik_example.key.txt"
    cli("project", "new", str(out), "--inventory", WORDNET, "--annotations", f"gold={gold}:gold",
        "--annotations", f"lesk={lesk}:system", "--annotations", f"resnik={resnik}:system")
    return out, gold, lesk, resnik


def test_paired_tests_against_the_reference_gold_are_compares(semeval2015) -> None:
    project, gold, lesk, resnik = semeval2015
    with Session.open(str(project), read_only=True) as s:
        data = Dashboard(s.corpus).compute(intervals=True, n_resamples=0)
    assert data.gold_n == 0 and data.significance is None  # no decision: no adjudicated gold
    view = data.reference_significance["gold"]
    assert view.names == ["lesk", "resnik"] and view.n == 1022
    for policy in ("leaf", "fine"):
        printed = compare_json(str(gold), [("lesk", lesk), ("resnik", resnik)], policy)
        assert check_equal(view, printed, policy) == 5  # all, and each of the four parts of speech
    f1 = view.groups["leaf"]["all instances"][0]
    assert f1.mcnemar.p_value == pytest.approx(0.847, abs=5e-4)  # the figures
    assert f1.metrics["f1"].difference == pytest.approx(-0.0496, abs=5e-5)
    assert f1.metrics["f1"].p_value == pytest.approx(0.02, abs=0.002)
    # the report: the same figures, as compare prints them
    page = render_report(data)
    assert "Paired significance tests against the reference gold gold" in page
    t = f1.metrics["f1"]
    assert f"[{t.low:.3f}, {t.high:.3f}]" in page and f"{t.p_value:.4f}" in page
    assert f"{f1.mcnemar.p_value:.4f}" in page


def test_the_order_of_the_systems_changes_no_figure_of_compare(semeval2015) -> None:
    """compare with resnik first gave F1 p 0.0196 and [0.011, 0.092], lesk first 0.0189 (#31 item 4)."""
    _, gold, lesk, resnik = semeval2015
    one = compare_json(str(gold), [("lesk", lesk), ("resnik", resnik)])["tests"]["all instances"]["all instances"][0]
    two = compare_json(str(gold), [("resnik", resnik), ("lesk", lesk)])["tests"]["all instances"]["all instances"][0]
    for m in METRICS:
        assert one[m]["p_randomization"] == two[m]["p_randomization"]
        assert one[m]["ci"] == [-two[m]["ci"][1], -two[m]["ci"][0]]


def test_one_seed_one_set_of_figures_with_the_gold_imported_as_decisions(semeval2015, tmp_path) -> None:
    """The gold imported as decisions: the dashboard's paired tests, the stored runs' test and compare
    --gold P.hadj give the same p-values and intervals (#31 item 4: 0.0197, 0.0189 and 0.0196)."""
    from hieradjudicate.app.paired import ALL, run_tests
    from hieradjudicate.app.runs import run_history

    import shutil

    first, gold, lesk, resnik = semeval2015
    project = tmp_path / "decided.hadj"
    shutil.copyfile(first, project)  # the key as reference gold too: both golds give the same tests
    keys = {ln.split()[0]: ln.split()[1:] for ln in gold.read_text().splitlines() if ln.strip()}
    with Session.open(str(project), read_only=True) as s:
        rows = [(lx, i, " ".join(keys[i])) for lx, i in s.instances() if i in keys]
    table = tmp_path / "gold.csv"
    with table.open("w", newline="") as f:
        csv.writer(f).writerows([("lexelt", "instance", "tags"), *rows])
    cli("project", "import-decisions", str(project), str(table))
    cli("project", "add-run", str(project), f"lesk={lesk}")
    cli("project", "add-run", str(project), f"resnik={resnik}")
    with Session.open(str(project), read_only=True) as s:
        tracker = DecisionTracker(s.corpus, s.store.iter_history())
        data = Dashboard(s.corpus).compute(tracker=tracker, intervals=True, n_resamples=0)
        history = {p: run_history(s, p) for p in ("leaf", "fine")}
    assert data.gold_n == 1022
    for policy in ("leaf", "fine"):
        printed = compare_json(str(project), [("lesk", lesk), ("resnik", resnik)], policy)
        assert check_equal(data.significance, printed, policy) == 5
        assert check_equal(data.reference_significance["gold"], printed, policy) == 5
        h = history[policy]  # the stored-runs panel's test, through the same code path
        import numpy as np

        (t,) = run_tests(np.vstack([h[0].score, h[1].score]),
                         np.vstack([h[0].attempted_per_instance, h[1].attempted_per_instance]),
                         [h[0].name, h[1].name])[ALL][ALL]
        want = printed["tests"]["all instances"]["all instances"][0]
        for m in METRICS:
            assert t.metrics[m].p_value == want[m]["p_randomization"]
            assert [t.metrics[m].low, t.metrics[m].high] == pytest.approx(want[m]["ci"], abs=1e-12)


def test_the_report_on_wsd_all_carries_lesks_per_data_set_scores(tmp_path) -> None:
    """#31 item 3: the report said "No system scores" while the window showed lesk's P, R, F1 per data
    set, and drew a 1 x 1 "pairwise agreement" square for one set."""
    d = _data()
    gold, lesk = d / "ALL.gold.key.txt", d / "ALL.lesk_example.key.txt"
    project = tmp_path / "all.hadj"
    cli("project", "new", str(project), "--inventory", WORDNET, "--annotations", f"gold={gold}:gold",
        "--annotations", f"lesk={lesk}:system")
    out = tmp_path / "report.html"
    cli("report", str(project), "-o", str(out), "--competence", "none", "--resamples", "0")
    page = out.read_text()
    assert "No system scores: there are no systems, or no gold yet" not in page
    assert 'aria-label="pairwise agreement"' not in page and "pairwise agreement</title>" not in page
    assert "agreement needs at least two sets to compare" in page
    for policy in ("fine", "leaf"):
        printed = json.loads(cli("score", "--inventory", WORDNET, "--gold", str(gold), "--system",
                                 f"lesk={lesk}", "--policy", policy, "--format", "json"))["systems"][0]
        assert printed["f1"] == pytest.approx(0.322, abs=5e-4) or policy == "leaf"
        rows = [[printed["precision"], printed["recall"], printed["f1"], printed["coverage"]]]
        rows += [[v["precision"], v["recall"], v["f1"]] for v in printed["by_dataset"].values()]
        assert len(printed["by_dataset"]) == 5
        section = page[page.index(f"<h3>{policy} policy</h3>"):]
        section = section[:section.index("</table>")]
        for ds, v in [("all", printed), *printed["by_dataset"].items()]:
            cells = "".join(f'<td class="num">{x:.3f}</td>' for x in (v["precision"], v["recall"], v["f1"]))
            assert f"<td>{ds}</td>{cells}" in section, (policy, ds)


def test_three_systems_holm_over_the_pairs_as_compare(tmp_path) -> None:
    """More than two systems: every pair, Holm's correction over the pairs of each group, as compare."""
    d = _data()
    gold = d / "semeval2015.gold.key.txt"
    lesk, resnik = d / "semeval2015.lesk_example.key.txt", d / "semeval2015.resnik_example.key.txt"
    # a third system: lesk's answer on every other instance of the key, resnik's on the rest
    ids = [ln.split()[0] for ln in gold.read_text().splitlines() if ln.strip()]
    pick = {i: k % 2 for k, i in enumerate(ids)}
    lines = [ln for src, side in ((lesk, 0), (resnik, 1)) for ln in src.read_text().splitlines()
             if ln.strip() and pick.get(ln.split()[0]) == side]
    mixed = tmp_path / "mix.key"
    mixed.write_text("\n".join(lines) + "\n")
    project = tmp_path / "three.hadj"
    systems = [("lesk", lesk), ("resnik", resnik), ("mix", mixed)]
    cli("project", "new", str(project), "--inventory", WORDNET, "--annotations", f"gold={gold}:gold",
        *[a for name, path in systems for a in ("--annotations", f"{name}={path}:system")])
    with Session.open(str(project), read_only=True) as s:
        data = Dashboard(s.corpus).compute(intervals=True, n_resamples=0)
    view = data.reference_significance["gold"]
    assert view.names == ["lesk", "resnik", "mix"]
    printed = compare_json(str(gold), systems, "fine")
    assert check_equal(view, printed, "fine") == 5 * 3  # three pairs in each of the five groups
    t = view.groups["fine"]["all instances"]
    assert all(x.holm == 3 and x.metrics["f1"].p_holm is not None for x in t)
    assert "p Holm" in render_report(data)
