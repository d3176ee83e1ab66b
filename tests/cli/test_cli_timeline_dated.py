"""A journey from a Label Studio export with dates to ``project timeline`` (issue 32): the per-week
agreement and drift the command prints equal scikit-learn's on the week's pairs; a project whose
inputs carry no dates keeps the sentence that says so."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from tests.app.test_timeline_dated import NAMES, make_answers, monday, oracle_week, same, write_labelstudio
from tests.conftest import DEMO


@pytest.fixture
def dated_project(tmp_path: Path, capsys) -> tuple[Path, list[dict]]:
    answers = make_answers(seed=21)
    inv = tmp_path / "inventory.txt"
    inv.write_text("# lexelt bank.n\n1: one\n2: two\n3: three\n")
    ls = write_labelstudio(answers, tmp_path / "export.json")
    proj = tmp_path / "p.hadj"
    assert main(["project", "new", str(proj), "--inventory", str(inv), "--annotations", f"ls={ls}"]) == 0
    ls.unlink()  # the project reads its stored copy
    capsys.readouterr()
    return proj, answers


def test_timeline_by_week_prints_each_annotators_drift_as_scikit_learn_computes_it(dated_project, capsys):
    proj, answers = dated_project
    assert main(["project", "timeline", str(proj), "--by", "week", "--measure", "drift", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    weeks = sorted({monday(x["at"]) for x in answers})
    assert sorted({r["time"] for r in rows}) == weeks
    for week in weeks:
        _, drift = oracle_week(answers, week)
        got = {r["measure"]: float(r["value"]) if r["value"] else None for r in rows if r["time"] == week}
        assert got.keys() == {f"drift:{n}" for n in drift}
        for who, k in drift.items():
            assert same(got[f"drift:{who}"], k)


def test_timeline_json_carries_the_weeks_mean_kappa_and_the_text_names_the_dates(dated_project, capsys):
    proj, answers = dated_project
    assert main(["project", "timeline", str(proj), "--format", "json", "--resamples", "0"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert "dates inside the inputs" in d["note"] and "only" not in d["note"]
    for p in d["dated"]["weeks"]:
        mean_k, _ = oracle_week(answers, p["week"])
        assert same(p["figures"]["mean_kappa_cohen"]["value"], mean_k)
    assert main(["project", "timeline", str(proj), "--by", "week", "--measure", "week_kappa",
                 "--measure", "drift:" + NAMES[2]]) == 0
    out = capsys.readouterr().out
    assert "By week of annotation" in out and f"drift:{NAMES[2]}" in out and "drift:" + NAMES[0] not in out


def test_a_project_without_dates_says_the_timeline_rests_on_import_and_decision_times(tmp_path, capsys):
    proj = tmp_path / "p.hadj"
    assert main(["project", "new", str(proj), "--inventory", str(DEMO / "inventory.txt"), "--annotations",
                 f"ann={DEMO / 'annotator_ann.key'}", "--annotations", f"ben={DEMO / 'annotator_ben.key'}"]) == 0
    capsys.readouterr()
    assert main(["project", "timeline", str(proj), "--by", "week"]) == 0
    out = capsys.readouterr().out
    assert "rests on import and decision times only" in out and "By week of annotation" not in out
    assert main(["project", "timeline", str(proj), "--by", "week", "--measure", "drift"]) == 0
    assert "no dates inside the inputs" in capsys.readouterr().out


def test_the_report_shows_agreement_by_week_of_annotation_as_the_command_line_prints_it(dated_project, tmp_path,
                                                                                       capsys):
    proj, answers = dated_project
    assert main(["project", "timeline", str(proj), "--format", "json", "--resamples", "0"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert main(["report", str(proj), "-o", str(tmp_path / "r.html"), "--resamples", "0"]) == 0
    html = (tmp_path / "r.html").read_text()
    sec = html[html.index('<section id="timeline">'):]
    sec = sec[:sec.index("</section>")]
    assert "Agreement by week of annotation" in sec and "dates inside the inputs" in sec
    for p in d["dated"]["weeks"]:
        k = p["figures"]["mean_kappa_cohen"]["value"]
        drift = [f["value"] for f in p["drift"].values() if f["value"] is not None]
        assert f"<td>{p['week']}</td>" in sec and f"{k:.3f}" in sec
        assert all(f"{v:.3f}" in sec for v in drift)
