"""Issue 31, minor window items: after closing a project the start page offers nothing of it (no "Undo
decide …", no old status text) and the title counts decisions in words."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.gui.journey import open_window


def test_closing_a_project_leaves_no_undo_or_status_of_it(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    i = win.ws.current
    qtbot.keyClick(win.ws.table, Qt.Key.Key_1)  # decide, then move on
    qtbot.waitUntil(lambda: win.ws.current != i, timeout=60_000)
    assert " · 1 decision — " in win.windowTitle()  # one decision, not "1 decisions"
    lex, inst = win.wb.key_of(i)
    assert win.actions["undo"].text() == f"&Undo decide {lex} {inst}"
    win.statusBar().showMessage("Decided something", 60_000)
    win.actions["close"].trigger()  # File ▸ Close project
    assert win.session is None and win.stack.currentWidget() is win.start
    assert win.actions["undo"].text() == "&Undo" and not win.actions["undo"].isEnabled()
    assert win.statusBar().currentMessage() == ""
    assert win.windowTitle() == "hieradjudicate"
    win.close()


def test_ctrl_u_while_competence_runs_says_it_waits_and_keeps_the_highlight(qtbot, private_dirs, tmp_path,
                                                                            monkeypatch) -> None:
    import threading

    from hieradjudicate.gui.dashboard import competence_panel
    from tests.crowd import crowd_project
    from tests.gui.journey import highlighted

    release = threading.Event()
    real = competence_panel.estimate

    def held(*args, **kwargs):  # the estimate runs until the test lets it finish
        release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(competence_panel, "estimate", held)
    win = open_window(qtbot, crowd_project(tmp_path / "crowd12.hadj", 12))
    try:
        for _ in range(3):
            qtbot.keyClick(win.ws.table, Qt.Key.Key_Down)
        here = highlighted(win)
        qtbot.keyClick(win.ws.table, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
        assert win.wb.competence is None
        assert "waits for the competence estimate" in win.statusBar().currentMessage()
        release.set()
        qtbot.waitUntil(lambda: win.wb.sort_key == "uncertainty", timeout=60_000)
        assert highlighted(win) == here  # sorted, and the highlight did not move by itself
        assert "stayed where it was" in win.statusBar().currentMessage()
    finally:
        release.set()
        win.close()


def test_answer_columns_and_the_gold_fit_a_1024_by_700_window(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    win.resize(1016, 666)  # a 1024×700 screen less the window frame
    qtbot.waitUntil(lambda: win.width() <= 1016, timeout=60_000)
    ws, wb = win.ws, win.wb
    head = ws.table.horizontalHeader()
    ws.table.horizontalScrollBar().setValue(0)
    sets = [c for c, k in enumerate(ws.model.keys) if k.startswith("set:")]
    assert sets
    for c in sets:  # every answer column in sight without scrolling, on every row
        assert head.sectionViewportPosition(c) + head.sectionSize(c) <= head.viewport().width(), \
            ws.model.specs[c].title
    i = ws.current
    qtbot.keyClick(ws.table, Qt.Key.Key_1)
    qtbot.waitUntil(lambda: wb.status[i] == 1, timeout=60_000)
    g = ws.model.keys.index("gold")
    text = ws.model.data(ws.model.index(wb.row_of(i), g))
    bold = ws.table.font()
    bold.setBold(True)
    from PySide6.QtGui import QFontMetrics

    assert text and QFontMetrics(bold).horizontalAdvance(text) + 8 <= head.sectionSize(g)  # never "docu…"
    win.close()


def test_legend_chips_filter_the_rows_and_a_second_click_shows_all(qtbot, demo_project: Path) -> None:
    win = open_window(qtbot, demo_project)
    ws, wb = win.ws, win.wb
    chip = ws.legend.chips[3]  # "≠ disjoint"
    assert chip.isVisible()
    qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
    expected = sorted(int(i) for i in (wb.cols.category == 3).nonzero()[0])
    assert 0 < len(expected) < wb.corpus.n
    assert sorted(wb.view.tolist()) == expected
    assert chip.isChecked() and ws.category_box.currentData() == (3,)
    single = ws.legend.chips[-1]
    qtbot.mouseClick(single, Qt.MouseButton.LeftButton)  # another chip: its rows instead
    assert sorted(wb.view.tolist()) == sorted(int(i) for i in (wb.cols.category == -1).nonzero()[0])
    assert single.isChecked() and not chip.isChecked()
    qtbot.mouseClick(single, Qt.MouseButton.LeftButton)  # again: every row
    assert wb.view.size == wb.corpus.n and not single.isChecked()
    assert ws.table.hasFocus()  # the keys still decide the highlighted row
    win.close()


def test_column_titles_keep_room_for_the_sort_arrow(qtbot, demo_project: Path) -> None:
    from PySide6.QtWidgets import QStyle

    win = open_window(qtbot, demo_project)
    head = win.ws.table.horizontalHeader()
    arrow = head.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, head)
    fm = head.fontMetrics()
    for c, key in enumerate(win.ws.model.keys):
        title = win.ws.model.specs[c].title
        if key in ("agreement", "status", "category") or key.startswith("set:"):  # "Leaf agr." lost its "."
            assert fm.horizontalAdvance(title) + arrow <= head.sectionSize(c), title
    win.close()


def test_export_of_the_demo_proposes_a_folder_the_user_chose(qtbot, private_dirs: Path, tmp_path: Path,
                                                             monkeypatch) -> None:
    from hieradjudicate.app.demo import data_dir, ensure_demo_project
    from tests.gui.journey import CTRL_SHIFT, export_gold

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    demo = ensure_demo_project(data_dir() / "demo.hadj")  # where File ▸ Demo keeps it
    win = open_window(qtbot, demo)
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E, CTRL_SHIFT)
    dlg = win.project_ops.export_dialog
    assert dlg.path.text() == str(tmp_path / "home" / "demo.gold.key")  # not the program's data folder
    qtbot.mouseClick(dlg.close_button, Qt.MouseButton.LeftButton)
    (tmp_path / "mine").mkdir()
    export_gold(qtbot, win, "csv", tmp_path / "mine" / "g.csv")
    qtbot.keyClick(win.ws.table, Qt.Key.Key_E, CTRL_SHIFT)
    assert Path(win.project_ops.export_dialog.path.text()).parent == tmp_path / "mine"  # where it went last
    win.close()
    again = open_window(qtbot, demo)  # another session: the folder last exported to, not the data folder
    qtbot.keyClick(again.ws.table, Qt.Key.Key_E, CTRL_SHIFT)
    assert again.project_ops.export_dialog.path.text() == str(tmp_path / "mine" / "demo.gold.key")
    again.close()


def test_reference_scores_keep_their_rows_after_switching_from_a_project_without_them(
        qtbot, demo_project: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    from hieradjudicate.app.demo import demo_inputs

    d = demo_inputs()
    ref = tmp_path / "ref.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(ref), "--inventory",
                    str(d / "inventory.txt"), "--annotations", f"ann={d / 'annotator_ann.key'}:gold",
                    "--annotations", f"lesk={d / 'system_lesk.ans'}:system",
                    "--annotations", f"neural={d / 'system_neural.ans'}:system"], check=True, timeout=300)
    win = open_window(qtbot, demo_project)  # no reference gold: its dock split is saved on closing
    win.resize(1900, 1000)
    assert win.load_project(ref)  # as File ▸ Open does
    panel = win.ws.live.reference
    qtbot.waitUntil(lambda: panel.figures is not None and panel.model.rowCount() >= 2, timeout=60_000)
    qtbot.wait(50)
    table = panel.table
    assert table.geometry().bottom() <= panel.height()  # the table lies inside its panel, not under the next
    rows = sum(table.rowHeight(r) for r in range(min(panel.model.rowCount(), 2)))
    assert table.viewport().height() >= rows  # both systems' rows in sight, never only the header row
    win.close()


def test_a_small_negative_figure_never_reads_minus_zero() -> None:
    from hieradjudicate.gui.dashboard.common import fmt

    assert fmt(-0.004, 2) == "-0.004"  # was "-0.00" (lesk × resnik in the pairwise heat map)
    assert fmt(-0.0004, 2) == "0.00" and fmt(0.004, 2) == "0.00" and fmt(-0.25, 2) == "-0.25"
    assert fmt(float("nan")) == "undefined" and fmt(-0.0) == "0.000"
