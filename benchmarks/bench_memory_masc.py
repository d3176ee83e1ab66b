"""Memory of the window on MASC, stage by stage (#23 item 5: < 800 MB).

    python benchmarks/bench_memory_masc.py [--project P.hadj] [--early] [--no-cli]

Without ``--project`` the MASC project is built from ``$HIERADJ_REALDATA/masc_amt``
into a temporary folder.  The window opens and its background work runs as the
program schedules it (live figures, the dashboard's warm-up, the competence
estimate); ``--early`` clicks "Dashboard" right after opening, as a user may,
so that the tab's figures and the background jobs overlap.  After each stage
the resident set (VmRSS) and the peak so far (VmHWM) are printed, then the
stack of every thread at the moment the peak was sampled (a thread polls
``/proc/self/statm`` every 2 ms), and the CLI's maximum resident set for
``report`` and ``competence`` of the project and ``agree`` of the MASC files
(``/usr/bin/time -v`` when present).
Figures are printed, never asserted; the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import tracemalloc
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HIERADJ_NO_DIALOGS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import build_masc, realdata  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def status() -> tuple[float, float]:
    """VmRSS and VmHWM of this process, MiB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


class PeakSampler(threading.Thread):
    """Polls the resident set; at every new maximum (by 2 MiB or more) keeps every thread's stack."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.top = 0.0
        self.where: list[str] = []
        self.stage = ""
        self.running = True
        self._fd = os.open("/proc/self/statm", os.O_RDONLY)

    def run(self) -> None:
        me = threading.get_ident()
        while self.running:
            rss = int(os.pread(self._fd, 100, 0).split()[1]) * PAGE / 2**20
            if rss > self.top + 2:
                self.top = rss
                frames = sys._current_frames()
                names = {t.ident: t.name for t in threading.enumerate()}
                where = [f"  at {rss:.0f} MiB, stage {self.stage!r}"]
                for ident, frame in frames.items():
                    if ident == me:
                        continue
                    own = [f for f in traceback.extract_stack(frame) if "hieradjudicate" in f.filename]
                    if own:
                        where.append(f"    thread {names.get(ident, ident)}:")
                        where += [f"      {Path(f.filename).name}:{f.lineno} {f.name}: {(f.line or '')[:90]}"
                                  for f in own[-5:]]
                self.where = where
                del frames, frame  # else the sampled frames, and every array they hold, outlive the peak
            time.sleep(0.002)


def holders(top: int = 10) -> None:
    """The traced memory held now, by the innermost line of this program that allocated it."""
    snap = tracemalloc.take_snapshot()
    total: dict[str, int] = {}
    for tr in snap.traces:
        own = [f for f in tr.traceback if "hieradjudicate" in f.filename]
        key = f"{Path(own[-1].filename).parent.name}/{Path(own[-1].filename).name}:{own[-1].lineno}" if own else "(other)"
        total[key] = total.get(key, 0) + tr.size
    print(f"    traced {sum(total.values()) / 2**20:.0f} MiB; peak traced {tracemalloc.get_traced_memory()[1] / 2**20:.0f} MiB")
    for key, size in sorted(total.items(), key=lambda kv: -kv[1])[:top]:
        print(f"      {size / 2**20:7.1f} MiB  {key}")


def cli_peak(args: list[str]) -> tuple[float | None, float]:
    """Maximum resident set (MiB) and wall time of one command line run."""
    cmd = [sys.executable, "-m", "hieradjudicate", *args]
    t = time.perf_counter()
    if shutil.which("time") or Path("/usr/bin/time").exists():
        r = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
        return (int(m.group(1)) / 1024 if m else None), time.perf_counter() - t
    subprocess.run(cmd, capture_output=True)
    return None, time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", help="a .hadj project (default: MASC built from the real data)")
    ap.add_argument("--early", action="store_true", help="click Dashboard right after opening")
    ap.add_argument("--no-reestimate", action="store_true", help="skip the Dawid & Skene re-estimate (minutes)")
    ap.add_argument("--no-cli", action="store_true")
    ap.add_argument("--until", help="stop after the stage whose name starts with this (e.g. 'live')")
    ap.add_argument("--trace", action="store_true",
                    help="tracemalloc: the largest holders after each stage (slower; RSS includes its own bookkeeping)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project = Path(args.project) if args.project else build_masc(folder)
        from PySide6.QtCore import QCoreApplication, QSettings
        from PySide6.QtWidgets import QApplication

        QCoreApplication.setOrganizationName("hieradjudicate-bench")
        app = QApplication.instance() or QApplication([])
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(folder / "settings"))
        from hieradjudicate.gui.main_window import MainWindow

        if args.trace:
            tracemalloc.start(12)
        sampler = PeakSampler()
        sampler.start()
        t_start = time.perf_counter()
        rows: list[tuple[str, float, float, float]] = []

        def stage(name: str) -> None:
            rss, hwm = status()
            rows.append((name, time.perf_counter() - t_start, rss, hwm))
            print(f"{name:<34} t={rows[-1][1]:6.1f} s  RSS {rss:4.0f} MiB  peak {hwm:4.0f} MiB  "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)
            sampler.stage = f"after {name}"
            if args.trace:
                holders()
            if args.until and name.startswith(args.until):
                raise SystemExit(0)

        def settle(cond, limit: float = 900.0) -> None:
            t = time.perf_counter()
            while not cond() and time.perf_counter() - t < limit:
                app.processEvents()
                time.sleep(0.005)

        stage("started (Qt, imports)")
        sampler.stage = "open"
        win = MainWindow()
        assert win.load_project(project)
        win.show()
        app.processEvents()
        win.grab()
        stage("open (painted)")
        ws, work = win.ws, win.dashboard.work  # the warm-up and the estimate run before the tab exists
        if args.early:
            win.dashboard.show_dashboard()
            app.processEvents()
        settle(lambda: not ws.live.updating and ws.live.figures is not None)
        stage("live figures")
        settle(lambda: work.warm.busy or work.estimator.busy or win.wb.competence is not None, 30)
        settle(lambda: not work.warm.busy)
        stage("dashboard warm-up")
        settle(lambda: win.wb.competence is not None and not work.estimator.busy)
        stage("competence estimate")
        win.dashboard.show_dashboard()
        view = win.dashboard.view
        settle(lambda: view.data is not None and not view.updating)
        app.processEvents()
        win.grab()
        stage("dashboard shown")
        if not args.no_reestimate:
            panel = view.competence_panel
            panel.model_box.setCurrentIndex(1)
            panel.model_box.setCurrentIndex(0)
            app.processEvents()
            settle(lambda: not view.estimator.busy)
            stage("Dawid & Skene re-estimated")
        win.close_project()
        app.processEvents()
        stage("project closed")
        sampler.running = False
        sampler.join()
        print(f"project {project.name}: {len(win.wb.corpus.sets) if win.wb else '?'} sets; "
              f"{os.cpu_count()} CPUs; peak of the window {status()[1]:.0f} MiB, sampled at:")
        print("\n".join(sampler.where))
        if not args.no_cli:
            for cmd in (["report", str(project), "-o", str(folder / "r.html")], ["competence", str(project)],
                        ["agree", "--inventory", str(realdata() / "masc_amt" / "inventory_tree.tsv"),
                         "--annotations", str(realdata() / "masc_amt" / "masc_amt_labels_wide.tsv.gz")]):
                peak, secs = cli_peak(cmd)
                print(f"CLI {cmd[0]:<11} max RSS {peak if peak is None else round(peak)} MiB, {secs:.1f} s "
                      f"(load {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
