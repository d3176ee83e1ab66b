"""Issue 31 (minor): the wizard's preview of a crowd (MASC: 228 annotator sets) summarises it -- how
many sets, how many per instance -- instead of a wall of "N (annotator, K instances)", names every
set on a click, and the Sets column of the file table says "228 sets (a crowd)", not 228 ids."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hieradjudicate.app.loading.load import AnnotationSpec, load, sets_summary, validation_report
from hieradjudicate.gui.wizard.pages import PreviewPage
from tests.crowd import crowd_project


def _report(tmp_path: Path) -> dict:
    path = crowd_project(tmp_path / "crowd40.hadj", 40, per_item=7)
    result = load([], [AnnotationSpec(str(path.with_suffix(".tsv")))], [])
    return validation_report(result), result.corpus


def test_a_crowd_is_summarised_with_answers_per_instance(tmp_path: Path) -> None:
    report, corpus = _report(tmp_path)
    per = np.bincount(np.concatenate([s.rows for s in corpus.sets]), minlength=corpus.n)
    sizes = [s.n for s in corpus.sets]
    assert sets_summary(report) == (f"a crowd of 40 annotator sets ({per.min()}–{per.max()} per instance, "
                                    f"{min(sizes):,} to {max(sizes):,} instances each)")
    assert sets_summary(report, expand=True).count("(annotator, ") == 40


def test_the_wizard_preview_names_the_crowd_and_expands_on_a_click(qtbot, tmp_path: Path) -> None:
    report, _ = _report(tmp_path)
    page = PreviewPage()
    qtbot.addWidget(page)
    page.show_report(report)
    text = page.summary.text()
    assert "a crowd of 40 annotator sets" in text and text.count("(annotator, ") == 0
    assert page.files.topLevelItem(0).text(3) == "40 sets (a crowd)"
    page.summary.linkActivated.emit("expand")  # what a click on "name every set" sends
    assert page.summary.text().count("(annotator, ") == 40
