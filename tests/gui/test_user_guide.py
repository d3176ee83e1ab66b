"""Help ▸ User guide opens the local copy of the guide; the guide's key table is the action table's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

import hieradjudicate.app.guide as guide
from tests.gui.journey import open_window

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def opened(monkeypatch) -> list[QUrl]:
    """Every URL the window asks the desktop to open (none is really opened)."""
    urls: list[QUrl] = []

    def record(url: QUrl) -> bool:
        urls.append(QUrl(url))
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(record))
    return urls


def _help_menu_action(win, text: str):
    """The action of the Help menu whose text is ``text``, found as a user finds it: in the menu bar."""
    menus = {a.text().replace("&", ""): a.menu() for a in win.menuBar().actions()}
    assert "Help" in menus, list(menus)
    found = [a for a in menus["Help"].actions() if a.text().replace("&", "") == text]
    assert len(found) == 1, [a.text() for a in menus["Help"].actions()]
    return found[0]


def test_help_user_guide_opens_the_guide_of_this_checkout(qtbot, demo_project: Path, opened) -> None:
    win = open_window(qtbot, demo_project)
    _help_menu_action(win, "User guide").trigger()
    assert len(opened) == 1
    url = opened[0]
    assert url.isLocalFile()
    page = Path(url.toLocalFile())
    assert page.is_file()
    assert page in (ROOT / "site" / "index.html", ROOT / "docs" / "index.md")
    assert "hieradjudicate" in page.read_text(encoding="utf-8")
    assert "user guide" in win.statusBar().currentMessage()
    win.close()


def test_help_user_guide_without_a_copy_says_where_to_read_it(qtbot, demo_project: Path, opened,
                                                              monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(guide, "guide_candidates", lambda: [tmp_path / "nowhere" / "index.md"])
    win = open_window(qtbot, demo_project)
    _help_menu_action(win, "User guide").trigger()
    assert opened == []
    assert win.statusBar().currentMessage() == guide.NOT_FOUND  # HIERADJ_NO_DIALOGS: no blocking box
    win.close()


def test_installed_package_offers_only_its_own_copy(monkeypatch, tmp_path) -> None:
    """Installed in site-packages (no mkdocs.yml beside the package), a docs/ or site/ folder there
    belongs to another package and is never opened; the wheel's own _guide is."""
    pkg = tmp_path / "site-packages" / "hieradjudicate"
    (pkg / "_guide").mkdir(parents=True)
    (tmp_path / "site-packages" / "docs").mkdir()
    (tmp_path / "site-packages" / "docs" / "index.md").write_text("another package's docs")
    monkeypatch.setattr(guide._ilr, "files", lambda name: pkg)
    assert guide.guide_entry() is None
    (pkg / "_guide" / "index.md").write_text("# hieradjudicate")
    assert guide.guide_entry() == pkg / "_guide" / "index.md"


def test_guide_key_table_is_the_action_table() -> None:
    """docs/adjudicating.md's table of keys names each key as the action table binds it, and leaves
    none of the single keys and Ctrl combinations out."""
    from hieradjudicate.gui.actions import ACTIONS

    text = (ROOT / "docs" / "adjudicating.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([^`]+)`(?: … `9`)? \| ([^|]+?) \|$", text, re.M))
    by_key = {s.shortcut: s for s in ACTIONS if isinstance(s.shortcut, str)}
    for key, what in rows.items():
        assert key in by_key, f"docs/adjudicating.md lists the key {key}, which the program does not bind"
        expected = by_key[key].text.replace("&", "")
        assert what.startswith(expected.split(" of set")[0].rstrip("…")), (key, what, expected)
    unlisted = [k for k, s in by_key.items()
                if k not in rows and k != "?" and not (s.id.startswith("take") and k != "1")]
    assert not unlisted, f"keys missing from docs/adjudicating.md: {unlisted}"


def test_help_user_guide_when_no_program_opens_it_names_the_file(qtbot, demo_project: Path, monkeypatch) -> None:
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: False))
    win = open_window(qtbot, demo_project)
    _help_menu_action(win, "User guide").trigger()
    message = win.statusBar().currentMessage()
    assert message.startswith("No program opens ") and str(guide.guide_entry()) in message
    win.close()
