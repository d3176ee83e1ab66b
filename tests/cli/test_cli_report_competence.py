"""The report's competence section (#14): figures of the estimate, CSV beside a crowd's report, opt-out."""

from __future__ import annotations

import csv

import numpy as np

from hieradjudicate.app.dashboard.competence import estimate
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.crowd import crowd_project


def test_crowd_report_has_the_competence_section_and_its_tables(tmp_path, capsys) -> None:
    path = crowd_project(tmp_path / "c.hadj", 40, per_item=6)
    out = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(out), "--resamples", "0"]) == 0
    html = out.read_text(encoding="utf-8")
    assert '<section id="competence">' in html and "Dawid &amp; Skene over 40 annotator sets" in html
    with Session.open(path, read_only=True) as s:
        comp = estimate(s.corpus)
        names = [st.name for st in s.corpus.sets]
    folder = tmp_path / "r-tables"
    rows = list(csv.DictReader(open(folder / "competence.csv", encoding="utf-8")))
    assert len(rows) == 40
    got = {r["set"]: float(r["competence"]) for r in rows}
    for j, k in enumerate(comp.set_indices):
        assert abs(got[names[k]] - comp.competence[j]) < 1e-9
    hard = list(csv.DictReader(open(folder / "difficulty.csv", encoding="utf-8")))
    ent = [float(r["entropy_bits"]) for r in hard]
    assert ent == sorted(ent, reverse=True) and abs(ent[0] - np.nanmax(comp.entropy)) < 1e-9
    assert "most uncertain instances" in html


def test_competence_none_leaves_it_out_and_one_annotator_says_why(tmp_path) -> None:
    path = crowd_project(tmp_path / "c.hadj", 12, per_item=4)
    out = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(out), "--resamples", "0", "--competence", "none"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Not estimated" in html and "Highest competence" not in html


def test_report_with_mace(tmp_path) -> None:
    path = crowd_project(tmp_path / "c.hadj", 12, per_item=4)
    out = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(out), "--resamples", "0", "--competence", "mace"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "MACE over 12 annotator sets" in html
    with Session.open(path, read_only=True) as s:
        comp = estimate(s.corpus, model="mace")
    assert comp.model == "MACE" and np.all((comp.competence > 0) & (comp.competence < 1))
