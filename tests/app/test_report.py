"""The HTML report: self-contained, escaped, opens in headless Chromium; CSV/JSON table exports."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.gold import DecisionTracker
from hieradjudicate.app.dashboard.tables import tables
from hieradjudicate.app.demo import demo_inputs, demo_specs
from hieradjudicate.app.loading.load import load
from hieradjudicate.app.report.html import export_tables, render_report, write_report
from hieradjudicate.io.exports.csvsafe import restore_csv_cell
from hieradjudicate.io.store.project_store import DecisionRow

EVIL = "<script>alert('x')</script>"


@pytest.fixture(scope="module")
def corpus():
    inv, specs, ctx = demo_specs(demo_inputs())
    return load(inv, specs, ctx).corpus


def _decisions(corpus, notes: dict[int, str] | None = None, n: int = 120) -> list[DecisionRow]:
    ann = corpus.get_set("ann")
    notes = notes or {}
    rows = []
    for r in range(n):
        lexelt, inst = corpus.instance_key(int(ann.rows[r]))
        status = "flagged" if r in notes else "resolved"
        rows.append(DecisionRow(r + 1, lexelt, inst, tuple(corpus.tag_strings(ann, r)), "set:ann", status,
                                notes.get(r, ""), "lead", f"2026-02-0{1 + r // 40}T09:00:00.000Z"))
    return rows


@pytest.fixture(scope="module")
def demo_data(corpus):
    return Dashboard(corpus, title="Demo project").compute(tracker=DecisionTracker(corpus, _decisions(corpus)),
                                                           n_resamples=100)


def test_report_is_self_contained(demo_data):
    page = render_report(demo_data)
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page.lower()  # no JavaScript needed
    assert not re.search(r'(src|href)="(https?:)?//', page)  # no external assets
    assert not re.search(r"url\(", page)
    assert page.count("<svg") >= 6  # heatmap, lexelts, depth, confusion, gold, systems, progress
    assert "prefers-color-scheme: dark" in page
    for heading in ("Project summary", "Pairwise agreement", "Agreement per lexelt", "depth of the sense tree",
                    "Which senses get confused", "adjudicated gold", "System scores", "Adjudication progress",
                    "Flagged instances", "Method"):
        assert heading in page
    assert "downward probabilities" in page and "instance-weighted mean" in page


def test_data_strings_are_escaped_in_text_and_svg_titles(corpus):
    x = corpus.inventory.lexelts.index("bank.n")
    node = corpus.inventory.lookup(x, "1.1")
    old_gloss = corpus.inventory.node_gloss[node]
    corpus.inventory.node_gloss[node] = EVIL + ' " & gloss'
    try:
        tracker = DecisionTracker(corpus, _decisions(corpus, {3: EVIL + " note", 7: "=SUM(A1)"}))
        dash = Dashboard(corpus, title=EVIL)
        data = dash.compute(tracker=tracker, n_resamples=0)
        confs = [dash.confusion(dash.group[0], dash.group[1], x)]
        page = render_report(data, confusions=confs)
    finally:
        corpus.inventory.node_gloss[node] = old_gloss
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; note" in page  # the note, as text
    # the gloss appears escaped inside an SVG <title> tooltip of the confusion matrix
    titles = re.findall(r"<title>([^<]*)</title>", page)
    assert any("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &quot; &amp; gloss" in t for t in titles)
    assert "<title>&lt;script&gt;" in page  # the page title too


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_report_opens_in_headless_chromium_without_console_errors(demo_data, corpus, tmp_path):
    exe = _chromium()
    if exe is None:
        pytest.skip("chromium is not installed (Debian: apt-get install chromium)")
    path = write_report(demo_data, tmp_path / "report.html")
    profile = tmp_path / "profile"
    proc = subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
         "--enable-logging=stderr", "--v=0", "--dump-dom", path.as_uri()],
        check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    console = [line for line in proc.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == [], console
    dom = proc.stdout
    assert "<svg" in dom and "Pairwise agreement of all sets" in dom
    assert dom.count("<svg") == Path(path).read_text(encoding="utf-8").count("<svg")


def test_csv_export_neutralises_formulas(corpus, tmp_path):
    notes = {2: "=SUM(A1)", 5: "+1", 8: "-1", 11: "@x", 14: EVIL}
    tracker = DecisionTracker(corpus, _decisions(corpus, notes))
    data = Dashboard(corpus).compute(tracker=tracker, n_resamples=0)
    written = export_tables(data, tmp_path / "csv", "csv")
    names = {p.stem for p in written}
    assert set(tables(data)) == names
    with open(tmp_path / "csv" / "flagged.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    got = {r["note"] for r in rows}
    assert got == {"'=SUM(A1)", "'+1", "-1", "'@x", EVIL}  # a plain number is data, not a formula
    assert {restore_csv_cell(v) for v in got} == set(notes.values())
    for p in written:  # no text cell anywhere starts like a formula
        with open(p, encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    if cell and cell[0] in "=+-@":
                        float(cell)  # only numbers (a negative kappa) may start with "-"
    # numbers stay numbers: the pairwise kappa of the first pair reads back as the figure
    with open(tmp_path / "csv" / "pairwise.csv", encoding="utf-8", newline="") as fh:
        first = next(csv.DictReader(fh))
    assert abs(float(first["value"]) - float(data.heatmap.value[0, 1])) < 1e-12


def test_json_export_round_trips_numbers_and_nulls(demo_data, tmp_path):
    export_tables(demo_data, tmp_path, "json")
    doc = json.loads((tmp_path / "lexelts.json").read_text(encoding="utf-8"))
    assert doc["table"] == "lexelts"
    headers, rows = tables(demo_data)["lexelts"]
    assert doc["columns"] == headers
    assert [list(r.values()) for r in doc["rows"]] == rows
    assert doc["rows"][-1]["ci_low"] is None  # the macro mean row has no interval: null, not NaN
    assert np.isfinite([r["fleiss"] for r in doc["rows"][:-1]]).all()
