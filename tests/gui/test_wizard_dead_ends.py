"""Issue 21, item 4, in the wizard: no inventory goes on (every tag its own sense), WordNet that
matches none of the annotations' lexelts stops at the preview (no project that cannot be opened),
and the default project file is in the documents folder, named after the data."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QWizard

from hieradjudicate.app.demo import demo_inputs
from hieradjudicate.app.session.session import Session
from hieradjudicate.gui.wizard.wizard import NewProjectWizard

WORDNET = Path("/usr/share/wordnet")


@pytest.fixture
def home(private_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of the test's own (the documents folder is found under it)."""
    home = private_dirs / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    return home


def _wizard(qtbot) -> NewProjectWizard:
    wiz = NewProjectWizard()
    qtbot.addWidget(wiz)
    wiz.show()
    qtbot.waitExposed(wiz)
    return wiz


def _next(wiz: NewProjectWizard) -> None:
    button = wiz.button(QWizard.WizardButton.NextButton)
    assert button.isEnabled() and button.isVisible()
    button.click()


def _to_preview(qtbot, wiz: NewProjectWizard, annotations: list[str], inventory: list[str] = ()) -> None:
    if inventory:
        wiz.inventory.add_paths(list(inventory))
    _next(wiz)  # with no inventory too: Next is enabled on the inventory page
    wiz.annotation.add_paths(annotations)
    table = wiz.annotation.table
    qtbot.waitUntil(lambda: all(table.item(r, 1).text() != "reading…" for r in range(table.rowCount())),
                    timeout=60_000)
    _next(wiz)
    _next(wiz)
    _next(wiz)
    assert wiz.currentPage() is wiz.preview
    qtbot.waitUntil(lambda: wiz.preview.report is not None, timeout=60_000)


def test_no_inventory_goes_on_and_the_project_opens(qtbot, home: Path) -> None:
    demo = demo_inputs()
    wiz = _wizard(qtbot)
    assert wiz.inventory.isComplete()
    _to_preview(qtbot, wiz, [str(demo / "annotator_ann.key"), str(demo / "annotator_ben.key")])
    summary = wiz.preview.summary.text()
    assert "No inventory: every tag becomes a sense of its own" in summary and "Ready to create" in summary
    tags = {(t["lexelt"], t["tag"]) for t in wiz.preview.report["outside_tags"]}
    assert len(tags) > 50 and f"8 lexelts, {len(tags)} distinct tags as senses, 400 instances" in summary
    assert "0 senses" not in summary
    # the default place: the documents folder, named after the data; never the data's own folder
    out = home / "Documents" / "annotator_ann.hadj"
    assert wiz.preview.output_path() == str(out)
    wiz.button(QWizard.WizardButton.FinishButton).click()
    qtbot.waitUntil(lambda: wiz.created_path is not None, timeout=60_000)
    with Session.open(out) as s:
        assert s.corpus.n == 400 and len(s.corpus.sets) == 2


def test_default_path_never_replaces_a_file(qtbot, home: Path) -> None:
    demo = demo_inputs()
    (home / "Documents").mkdir()
    (home / "Documents" / "annotator_cho.hadj").write_bytes(b"")
    wiz = _wizard(qtbot)
    _to_preview(qtbot, wiz, [str(demo / "annotator_cho.key")], [str(demo / "inventory.txt")])
    assert wiz.preview.output_path() == str(home / "Documents" / "annotator_cho-2.hadj")


@pytest.mark.skipif(not (WORDNET / "index.noun").is_file(), reason="WordNet is not installed at /usr/share/wordnet")
def test_wordnet_matching_nothing_stops_at_the_preview(qtbot, home: Path, tmp_path: Path) -> None:
    ents = tmp_path / "entities.key"  # entity links: lexelts are names, not lemma.pos
    ents.write_text("Diderot Q1 wd:Q448\nRousseau Q2 wd:Q6527\n", encoding="utf-8")
    wiz = _wizard(qtbot)
    _to_preview(qtbot, wiz, [str(ents)], [str(WORDNET)])
    rows = [wiz.preview.files.topLevelItem(r) for r in range(wiz.preview.files.topLevelItemCount())]
    assert [r.text(2) for r in rows if r.text(0) == "inventory"] == ["failed"]
    problems = [wiz.preview.problems.item(k).text() for k in range(wiz.preview.problems.count())]
    assert any("WordNet has none of the 2 lexelt(s)" in p for p in problems), problems
    assert not wiz.preview.isComplete()  # Create stays disabled: no project that cannot be opened
    assert not wiz.button(QWizard.WizardButton.FinishButton).isEnabled()
    assert not list((home / "Documents").glob("*.hadj"))
