"""The MASC window's competence estimate made, then read back from the estimates kept on disk (#33).

    python benchmarks/bench_competence_kept.py [--project P.hadj] [--opens 2]

Opens the project (default: MASC built from ``$HIERADJ_REALDATA/masc_amt`` into a temporary folder) in
the real window (offscreen unless ``QT_QPA_PLATFORM`` says otherwise) ``--opens`` times, closed and opened
again in one window,
with the estimates kept in a fresh temporary ``XDG_CACHE_HOME``: the first opening makes the estimate
(Dawid & Skene, in worker processes, as the window does), each later one reads it back
(:mod:`hieradjudicate.app.dashboard.competence_cache`).  Printed per opening: the seconds from the
project opened to the competence figures there, whether they were kept, how long the estimate took when
it was made, the peak RSS so far, the load average; then the size of the kept file.  Figures are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HIERADJ_NO_DIALOGS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_util import build_masc  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", help="a .hadj project (default: MASC built from the real data)")
    ap.add_argument("--opens", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.pop("HIERADJ_NO_CACHE", None)  # _bench_util turns it off for every other benchmark
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        project = Path(args.project) if args.project else build_masc(Path(tmp))
        from PySide6.QtCore import QCoreApplication, QEvent
        from PySide6.QtWidgets import QApplication

        from hieradjudicate.gui.main_window import MainWindow

        app = QApplication([])

        def settle(done, limit: float) -> None:
            t = time.perf_counter()
            while not done() and time.perf_counter() - t < limit:
                app.processEvents()
                time.sleep(0.005)

        print(f"{project}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
        win = MainWindow()  # one window, the project closed and opened again in it (as File > Open does)
        win.resize(1366, 768)
        win.show()
        for k in range(args.opens):
            t0 = time.perf_counter()
            assert win.load_project(str(project))
            settle(lambda: win.wb.competence is not None, 600)
            comp = win.wb.competence
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"opening {k + 1}: competence shown {time.perf_counter() - t0:.2f} s after the project opened; "
                  f"{'kept' if comp.kept else 'made'} (the estimate took {comp.seconds:.2f} s when made); "
                  f"peak RSS {rss:.0f} MiB; load average {os.getloadavg()[0]:.2f}")
            win.close_project()
            app.processEvents()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # as the event loop does next
            gc.collect()
        win.close()
        kept = list((Path(tmp) / "cache").rglob("*.npz"))
        print(f"kept: {len(kept)} file(s), {sum(f.stat().st_size for f in kept) / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
