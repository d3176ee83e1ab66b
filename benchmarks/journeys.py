"""The journeys of issue 21 in a real window under Xvfb, a screenshot at every step, at 1280x800 and 1366x768.

    python benchmarks/journeys.py [--sizes 1280x800,1366x768] [--out benchmarks/out/journeys] [--no-masc]

For each screen size the script starts its own Xvfb (a free display number) and openbox, runs the
journeys in a child process on that display (Qt's xcb platform: a real X window, a window manager,
real focus), then stops both again (by their process ids).  Every step writes the whole screen as
``OUT/WxH/NN-journey-step.png`` (dialogs included) for a person to look at, and the script prints
how long the steps a user waits for took (the project file being opened, the resolve preview, the
export, the dashboard's "updating…").  The journeys (keys, header clicks and buttons as a user presses them):

1. demo: open → sort (a click on the "Leaf agr." header, twice: descending) → decide with keys (each
   decided instance checked to be the highlighted one) → File ▸ Export gold… (CSV) → close → reopen →
   the same decisions;
2. INCEpTION XMI (``$HIERADJ_REALDATA/inception``) through File ▸ New with no inventory → the project opens;
3. MASC (228 crowd workers, 44,682 instances) → Decide ▸ Resolve what the annotators agree on → export →
   File ▸ Import decisions (CSV)… with one decision per instance (the path is given to the chooser);
4. the WSD evaluation framework's ``ALL`` (gold as the reference gold, the Lesk example as a system) with
   WordNet 3.0 (``/usr/share/wordnet``): the live panel's scores against the reference gold, then the
   Dashboard tab until its "updating…" ends, then its agreement panels (one set to compare: a sentence).

Journeys 2 to 4 need ``HIERADJ_REALDATA`` (or ``../shared/data``); they are skipped, saying so, without it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from _xscreen import NEEDS, missing_tools, run_on_screen  # noqa: E402


# ------------------------------------------------------------------------------------------ parent
def run_size(size: str, out: Path, masc: bool) -> int:
    args = [sys.executable, str(Path(__file__).resolve()), "--child", size, "--out", str(out)]
    return run_on_screen(size, args + ([] if masc else ["--no-masc"]))


# ------------------------------------------------------------------------------------------- child
class Journey:
    def __init__(self, size: str, out: Path) -> None:
        from PySide6.QtCore import QCoreApplication, QSettings
        from PySide6.QtWidgets import QApplication

        self.w, self.h = (int(x) for x in size.split("x"))
        self.out = out / size
        if self.out.exists():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True)
        self.tmp = Path(tempfile.mkdtemp(prefix="hadj-journeys-"))
        for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
            os.environ[var] = str(self.tmp / var.lower())
        os.environ["HOME"] = str(self.tmp / "home")  # the wizard's Documents folder lands here
        (self.tmp / "home").mkdir()
        os.environ["HIERADJ_FIXED_GEOMETRY"] = "1"
        os.environ["HIERADJ_NO_DIALOGS"] = "1"  # an error goes to the status bar, never a blocking box
        self.app = QApplication.instance() or QApplication([])
        QCoreApplication.setOrganizationName("hieradjudicate-journeys")
        QCoreApplication.setApplicationName("hieradjudicate-journeys")
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(self.tmp / "settings"))
        self.n = 0

    def wait(self, cond, timeout: float = 60.0, what: str = "") -> None:
        from PySide6.QtWidgets import QApplication

        end = time.perf_counter() + timeout
        while not cond():
            if time.perf_counter() > end:
                raise SystemExit(f"timed out waiting for {what or cond}")
            QApplication.processEvents()
            time.sleep(0.01)

    def settle(self, ms: int = 300) -> None:
        from PySide6.QtWidgets import QApplication

        end = time.perf_counter() + ms / 1000
        while time.perf_counter() < end:
            QApplication.processEvents()
            time.sleep(0.01)

    def shot(self, name: str) -> Path:
        self.settle()
        self.n += 1
        path = self.out / f"{self.n:02d}-{name}.png"
        screen = self.app.primaryScreen()
        assert screen.grabWindow(0).save(str(path)), path
        print(f"   shot {path.name}", flush=True)
        return path

    def window(self, path: Path | None = None):
        from hieradjudicate.gui.main_window import MainWindow

        win = MainWindow()
        win.resize(min(1280, self.w), min(800, self.h - 30))
        win.move(0, 0)
        win.show()
        if path is not None:
            t0 = time.perf_counter()
            assert win.load_project(path)
            print(f"   opened {path.name} in {time.perf_counter() - t0:.2f} s", flush=True)
        win.activateWindow()
        win.raise_()
        self.settle(500)
        return win

    def key(self, widget, key, mods=None) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        QTest.keyClick(widget, key, mods or Qt.KeyboardModifier.NoModifier)
        self.settle(50)

    def click(self, widget) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
        self.settle(50)

    def click_header(self, win, key: str) -> None:
        from PySide6.QtCore import QPoint, Qt
        from PySide6.QtTest import QTest

        col = win.ws.model.keys.index(key)
        head = win.ws.table.horizontalHeader()
        win.ws.table.scrollTo(win.ws.model.index(max(win.ws.current_row(), 0), col))
        x = head.sectionViewportPosition(col) + head.sectionSize(col) // 2
        QTest.mouseClick(head.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(x, head.height() // 2))
        self.settle(100)

    @staticmethod
    def highlighted(win) -> int:
        """The highlighted row's instance; stops the journey when the panel or the keys' target differ."""
        from hieradjudicate.gui.workbench.instance_model import InstanceRole

        rows = [int(win.ws.model.data(ix, InstanceRole)) for ix in win.ws.table.selectionModel().selectedRows()]
        i = rows[0] if len(rows) == 1 else -1
        if i < 0 or win.ws.current != i or win.ws.detail.instance != i:
            raise SystemExit(f"highlighted {rows}, keys act on {win.ws.current}, panel shows {win.ws.detail.instance}")
        return i

    def back_to(self, win) -> None:
        from PySide6.QtWidgets import QApplication

        win.activateWindow()
        self.wait(lambda: QApplication.activeWindow() is win, 5, "the window to be active")
        win.ws.table.setFocus()

    def export(self, win, fmt: str, target: Path, label: str) -> str:
        from PySide6.QtCore import Qt

        ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        self.back_to(win)
        self.key(win.ws.table, Qt.Key.Key_E, ctrl_shift)
        dlg = win.project_ops.export_dialog
        self.wait(lambda: dlg.isVisible(), 5, "the export dialog")
        dlg.format.setFocus()
        self.key(dlg.format, Qt.Key.Key_Home)
        for _ in range(dlg.format.findData(fmt)):
            self.key(dlg.format, Qt.Key.Key_Down)
        dlg.path.setFocus()
        self.key(dlg.path, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        from PySide6.QtTest import QTest

        QTest.keyClicks(dlg.path, str(target))
        self.shot(f"{label}-export-dialog")
        t0 = time.perf_counter()
        self.click(dlg.export_button)
        self.wait(lambda: dlg.result.text().startswith(("wrote", "Not exported")), 300, "the export")
        print(f"   export {fmt}: {time.perf_counter() - t0:.2f} s: {dlg.result.text()}", flush=True)
        self.shot(f"{label}-exported")
        said = dlg.result.text()
        self.click(dlg.close_button)
        return said

    # ---------------------------------------------------------------------------------- journeys
    def demo(self) -> None:
        from PySide6.QtCore import Qt

        from hieradjudicate.app.demo import ensure_demo_project

        print("-- journey 1: demo: decide with keys, export gold, reopen", flush=True)
        path = ensure_demo_project(self.tmp / "demo.hadj")
        win = self.window(path)
        self.shot("demo-open")
        for _ in range(2):  # "Leaf agr." ascending, then descending
            self.click_header(win, "agreement")
        self.shot("demo-sorted-by-leaf-agreement")
        self.back_to(win)
        decided, right = {}, True
        for step in "12A31":
            i = self.highlighted(win)
            k = win.wb.key_of(i)
            self.key(win.ws.table, getattr(Qt.Key, f"Key_{step}"))
            right &= bool(win.wb.status[i] == 1) and int(win.wb.status.sum()) == len(decided) + 1
            decided[k] = win.wb.gold[i]
        print(f"   sorted by {win.wb.sort_key} (descending: {win.wb.sort_descending}); each key decided the "
              f"highlighted instance: {right}", flush=True)
        self.shot("demo-decided-with-keys")
        self.export(win, "csv", self.tmp / "demo-gold.csv", "demo")
        win.close()
        win.deleteLater()
        again = self.window(path)
        same = all(again.wb.gold[again.wb.corpus.instance_index(*k)] == g for k, g in decided.items())
        print(f"   reopened: {len(again.session.decisions)} decisions; the same as decided: {same}", flush=True)
        self.shot("demo-reopened")
        again.close()
        again.deleteLater()

    def inception(self, data: Path) -> None:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QWizard

        xmi = data / "inception" / "diderot_rousseau.xmi"
        if not xmi.is_file():
            print(f"-- journey 2 skipped: {xmi} not found", flush=True)
            return
        print("-- journey 2: INCEpTION XMI through the wizard, no inventory", flush=True)
        win = self.window()
        self.shot("inception-start-page")

        def drive() -> None:
            wiz = QApplication.activeModalWidget()
            self.wait(lambda: wiz.isVisible(), 5, "the wizard")
            self.shot("inception-wizard-no-inventory")
            nxt = wiz.button(QWizard.WizardButton.NextButton)
            self.click(nxt)
            wiz.annotation.add_paths([str(xmi)])
            self.wait(lambda: wiz.annotation.table.item(0, 1).text() != "reading…", 30, "the XMI to be read")
            self.shot("inception-wizard-annotations")
            self.click(nxt)
            self.click(nxt)
            combo = wiz.mapping.boxes[str(xmi)]["sense layer"]
            combo.setCurrentText(next(combo.itemText(k) for k in range(combo.count())
                                      if "NamedEntity / identifier" in combo.itemText(k)))
            self.shot("inception-wizard-mapping")
            self.click(nxt)
            self.wait(lambda: wiz.preview.report is not None, 60, "the preview")
            self.shot("inception-wizard-preview")
            print(f"   wizard proposes {wiz.preview.output_path()}", flush=True)
            self.click(wiz.button(QWizard.WizardButton.FinishButton))

        QTimer.singleShot(0, drive)
        win.actions["new"].trigger()
        ok = win.session is not None
        print(f"   project opened: {ok} ({win.session.corpus.n if ok else 0} instances)", flush=True)
        self.settle(800)
        self.shot("inception-opened")
        win.close()
        win.deleteLater()

    def masc(self, data: Path) -> None:
        from PySide6.QtCore import Qt

        from hieradjudicate.app.loading.load import AnnotationSpec
        from hieradjudicate.app.session.session import Session

        d = data / "masc_amt"
        if not (d / "masc_amt_labels_wide.tsv.gz").is_file():
            print(f"-- journey 3 skipped: no MASC data in {d}", flush=True)
            return
        print("-- journey 3: MASC, resolve what the annotators agree on, export", flush=True)
        path = self.tmp / "masc.hadj"
        t0 = time.perf_counter()
        Session.create(path, [str(d / "inventory_tree.tsv")],
                       [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"), None, "annotator")]).close()
        print(f"   project created in {time.perf_counter() - t0:.2f} s", flush=True)
        win = self.window(path)
        self.wait(lambda: not win.ws.live.updating, 120, "the live figures")
        self.shot("masc-open")
        ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        self.back_to(win)
        t0 = time.perf_counter()
        self.key(win.ws.table, Qt.Key.Key_G, ctrl_shift)
        dlg = win.project_ops.agreed_dialog
        self.wait(lambda: dlg.isVisible(), 30, "the resolve dialog")
        print(f"   resolve dialog with its preview in {time.perf_counter() - t0:.2f} s: {dlg.preview.text()}",
              flush=True)
        self.shot("masc-resolve-preview")
        t0 = time.perf_counter()
        self.click(dlg.resolve_button)
        self.wait(lambda: not dlg.isVisible(), 60, "the resolve")
        print(f"   resolved in {time.perf_counter() - t0:.2f} s: {dlg.message}", flush=True)
        self.shot("masc-resolved")
        self.export(win, "senseval", self.tmp / "masc.key", "masc")
        self.import_all(win)
        win.close()
        win.deleteLater()


    def wsd_all(self, data: Path) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QScrollArea, QTabBar

        from hieradjudicate.app.loading.load import AnnotationSpec
        from hieradjudicate.app.session.session import Session

        d, wordnet = data / "wsdeval", Path("/usr/share/wordnet")
        if not (d / "ALL.gold.key.txt").is_file() or not (wordnet / "index.noun").is_file():
            print(f"-- journey 4 skipped: no {d / 'ALL.gold.key.txt'} or no WordNet 3.0 at {wordnet}", flush=True)
            return
        print("-- journey 4: WSD framework ALL + WordNet 3.0, scores against the reference gold", flush=True)
        path = self.tmp / "wsd_all.hadj"
        t0 = time.perf_counter()
        Session.create(path, [str(wordnet)], [AnnotationSpec(str(d / "ALL.gold.key.txt"), "gold", "gold"),
                                              AnnotationSpec(str(d / "ALL.lesk_example.key.txt"), "lesk", "system")],
                       [str(d / "ALL.data.xml")]).close()
        print(f"   project created in {time.perf_counter() - t0:.2f} s", flush=True)
        win = self.window(path)
        ref = win.ws.live.reference
        t0 = time.perf_counter()
        self.wait(lambda: ref is not None and ref.figures is not None and not win.ws.live.updating, 120,
                  "the scores against the reference gold")
        fine = ref.figures.get("lesk", "fine")
        print(f"   live panel: lesk against the reference gold in {time.perf_counter() - t0:.2f} s; fine "
              f"P {fine.precision:.3f} R {fine.recall:.3f} F1 {fine.f1:.3f}", flush=True)
        self.shot("wsd-open-live-scores")
        bar = win.dashboard.tabs.findChild(QTabBar)
        t0 = time.perf_counter()
        QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.tabRect(1).center())
        view = win.dashboard.view
        self.wait(lambda: not view.updating and view.reference.scores.figures is not None, 120, "the dashboard")
        print(f"   dashboard: \"updating…\" ended after {time.perf_counter() - t0:.2f} s: {view.state.text()}",
              flush=True)
        self.shot("wsd-dashboard")
        scroll = view.findChild(QScrollArea, "dash_scroll")
        scroll.verticalScrollBar().setValue(view.heatmap.y() - 4)
        self.shot("wsd-dashboard-agreement-panels")
        win.close()
        win.deleteLater()

    def import_all(self, win) -> None:
        """File ▸ Import decisions (CSV)… with one decision per instance (the first set's answer)."""
        import csv

        from hieradjudicate.gui.project import project_dialogs

        c = win.session.corpus
        ids = c.inventory.node_id
        first: dict[int, tuple[int, int]] = {}
        for k, s in enumerate(c.sets):
            for r, i in enumerate(s.rows.tolist()):
                first.setdefault(i, (k, r))
        path = self.tmp / "every-instance.csv"
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["lexelt", "instance", "tags"])
            for i, (k, r) in sorted(first.items()):
                w.writerow([*c.instance_key(i), " ".join(ids[int(t)] for t in c.sets[k].tags_at(r))])
        project_dialogs.CHOOSER = lambda *_a: str(path)  # no file dialog to click in a script
        t0 = time.perf_counter()
        win.actions["import_decisions"].trigger()
        # read and checked in the background, then previewed: nothing is recorded before Import
        self.wait(lambda: (win.project_ops.import_dialog is not None and win.project_ops.import_dialog.isVisible())
                  or win.statusBar().currentMessage().startswith("No decision"), 300, "the import's preview")
        dlg = win.project_ops.import_dialog
        if dlg is not None and dlg.isVisible():
            print(f"   preview: {dlg.preview.text()}", flush=True)
            self.shot("masc-import-preview")
            dlg.import_button.click()
        self.wait(lambda: win.statusBar().currentMessage().startswith(("imported", "No decision")), 300, "the import")
        print(f"   import of {len(first)} decisions: {time.perf_counter() - t0:.2f} s: "
              f"{win.statusBar().currentMessage()}", flush=True)
        self.shot("masc-imported")


def child(size: str, out: Path, masc: bool) -> int:
    from _bench_util import realdata

    j = Journey(size, out)
    try:
        j.demo()
        data = realdata()
        if data.is_dir():
            j.inception(data)
            j.wsd_all(data)
            if masc:
                j.masc(data)
        else:
            print(f"-- journeys 2 to 4 skipped: no real data at {data} (set HIERADJ_REALDATA)", flush=True)
    finally:
        shutil.rmtree(j.tmp, ignore_errors=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1280x800,1366x768")
    ap.add_argument("--out", default=str(HERE / "out" / "journeys"))
    ap.add_argument("--no-masc", action="store_true", help="leave out the MASC journey (the slowest)")
    ap.add_argument("--child", metavar="WxH", help=argparse.SUPPRESS)
    args = ap.parse_args()
    out = Path(args.out)
    if args.child:
        return child(args.child, out, not args.no_masc)
    if missing_tools():
        print(NEEDS, file=sys.stderr)
        return 2
    code = 0
    for size in args.sizes.split(","):
        code = max(code, run_size(size.strip(), out, not args.no_masc))
    print(f"screenshots in {out}")
    return code


if __name__ == "__main__":
    sys.exit(main())
