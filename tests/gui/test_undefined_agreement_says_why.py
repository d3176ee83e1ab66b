"""Two identical INCEpTION sets in the real window: the dashboard's pairwise figures are the ones
``hieradjudicate agree`` prints for the same files (one code path), and where they are undefined every
panel says why in agree's words, not that the sets share no instance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.conftest import skip_without_realdata
from tests.gui.journey import open_dashboard, open_window

NE = {"layer": "NamedEntity", "feature": "identifier"}
XMI = ["--xmi-layer", "NamedEntity", "--xmi-feature", "identifier"]


@pytest.fixture(scope="module")
def inception() -> Path:
    return skip_without_realdata("inception") / "inception"


def _twice(folder: Path, xmi: Path) -> Path:
    path = folder / f"{xmi.stem}.hadj"
    Session.create(path, [], [AnnotationSpec(str(xmi), "a", "annotator", columns=NE),
                              AnnotationSpec(str(xmi), "b", "annotator", columns=NE)], []).close()
    return path


def _agree(capsys, xmi: Path) -> dict:
    capsys.readouterr()
    assert main(["agree", "--annotations", f"a={xmi}", "--annotations", f"b={xmi}", *XMI, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _sentence(plot) -> str:
    item = plot.__dict__.get("_empty_text")  # the one TextItem Panel.set_empty puts over a plot
    return item.toPlainText() if item is not None and item.isVisible() else ""


def test_identical_sets_with_one_tag_per_lexelt_say_undefined_as_agree_does(qtbot, capsys, private_dirs, inception):
    xmi = inception / "moralistik.xmi"
    pair = _agree(capsys, xmi)["pairs"][0]
    assert pair["kappa_cohen"] is None and pair["n"] == 71
    view = open_dashboard(qtbot, open_window(qtbot, _twice(private_dirs, xmi)))
    said = _sentence(view.heatmap.plot)
    assert "share an instance" not in said and "in common" not in said
    assert "undefined" in said.lower() and "Pr(E) = 1 (a single category in use)" in said and "71 instances" in said
    assert "fewer than two annotators" not in _sentence(view.lexelts.plot)
    assert "single category" in _sentence(view.lexelts.plot)
    depth = _sentence(view.depth_panel.plots[0])
    # the XMI project has no inventory: the depth chart says there is no tree to cut, not a wrong reason
    assert "shares an instance" not in depth and "no sense tree" in depth


def test_identical_sets_with_stacked_tags_give_agrees_zero_and_say_why(qtbot, capsys, private_dirs, inception):
    xmi = inception / "diderot_rousseau.xmi"
    pair = _agree(capsys, xmi)["pairs"][0]
    view = open_dashboard(qtbot, open_window(qtbot, _twice(private_dirs, xmi)))
    hm = view.heatmap.hm
    assert int(hm.n[0, 1]) == pair["n"] == 208
    assert float(hm.value[0, 1]) == pytest.approx(pair["kappa_cohen"], abs=1e-12)
    # the line under the map says why a set against itself is at chance: Pr(A) equals Pr(E)
    text = view.heatmap.cell_text(0, 1)
    assert f"Pr(A) {pair['observed']:.3f}" in text and f"Pr(E) {pair['expected_cohen']:.3f}" in text
    assert "answer alike on every shared instance" in text and "several tags" in text
