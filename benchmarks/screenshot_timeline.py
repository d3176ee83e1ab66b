"""The README's picture of the Timeline tab: the demo project decided over ten days, with a
re-import of one annotator's file and a "guidelines v2" marker between them.

    PYTHONPATH=. python benchmarks/screenshot_timeline.py [OUT.png] [--sizes 1024x700,1920x1080]

OUT defaults to benchmarks/timeline.png (the README's, 1280x800).  ``--sizes`` also shoots the window
at each size (OUT-WxH.png) and the HTML report's timeline section as headless Chromium shows it
(timeline-report-WxH.png beside OUT).

Runs off screen (QT_QPA_PLATFORM=offscreen unless a display is set); 1280x800 as the other shots.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "resources" / "demo"


def build(folder: Path) -> Path:
    from hieradjudicate.app.loading.load import AnnotationSpec
    from hieradjudicate.app.session.commands import Decide
    from hieradjudicate.app.session.decisions import Decision
    from hieradjudicate.app.session.session import Session
    from hieradjudicate.app.timeline.marks import add_marker

    for name in ("inventory.txt", "annotator_ann.key", "annotator_ben.key", "annotator_cho.key", "system_lesk.ans"):
        shutil.copy(DEMO / name, folder / name)
    specs = [AnnotationSpec(str(folder / f"annotator_{n}.key"), name=n) for n in ("ann", "ben", "cho")]
    specs.append(AnnotationSpec(str(folder / "system_lesk.ans"), name="lesk", role="system"))
    path = folder / "timeline-demo.hadj"
    rng = random.Random(4)
    import hieradjudicate.io.store.project_store as ps

    clock = ["2026-05-01T08:00:00.000Z"]  # the store stamps imports with this (a picture of May)
    ps.utc_now = lambda: clock[0]
    with Session.create(path, [str(folder / "inventory.txt")], specs) as s:
        s.decisions.clock = lambda: clock[0]
        c = s.corpus
        keys = s.instances()
        rng.shuffle(keys)
        j = 0
        for day in range(1, 11):
            batch = []
            for k in range(rng.randint(12, 30)):
                lex, inst = keys[j]
                j += 1
                i = c.instance_index(lex, inst)
                name = rng.choice(["ann", "cho", "cho", "ben"] if day < 6 else ["ann", "cho"])
                st = c.get_set(name)
                p = int(st.position([i])[0])
                if p < 0:
                    continue
                batch.append(Decision(lex, inst, tuple(c.tag_strings(st, p)), f"set:{name}", decided_by="lead",
                                      decided_at=f"2026-05-{day:02d}T{9 + k // 4:02d}:{k % 60:02d}:00.000Z"))
            s.execute(Decide(batch))
        add_marker(s.store, "guidelines v2", "2026-05-06")
        lines = (folder / "annotator_ben.key").read_text().splitlines()
        cho = {ln.split()[1]: ln for ln in (folder / "annotator_cho.key").read_text().splitlines()}
        fixed = [cho.get(ln.split()[1], ln) if rng.random() < 0.5 else ln for ln in lines]
        (folder / "ben_v2.key").write_text("\n".join(fixed) + "\n")
        clock[0] = "2026-05-06T08:00:00.000Z"
        s.reimport("ben", folder / "ben_v2.key")
    return path


def report_shots(path: Path, folder: Path, sizes: list[tuple[int, int]]) -> None:
    """The HTML report's timeline section, as a browser shows it at each size (headless Chromium)."""
    import subprocess

    from hieradjudicate.cli.entry import main as cli

    html = folder / "timeline-report.html"
    assert cli(["report", str(path), "-o", str(html)]) == 0
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        print(f"wrote {html} (no Chromium here to take its picture)")
        return
    text = html.read_text()  # the section alone, with the report's styles (a #fragment shoots blank)
    sec = text[text.index('<section id="timeline">'):]
    page = folder / "timeline-report-section.html"
    page.write_text(text[:text.index("<body")] + "<body>" + sec[:sec.index("</section>") + 10] + "</body></html>")
    for w, h in sizes:
        out = folder / f"timeline-report-{w}x{h}.png"
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={w},{h}", f"--screenshot={out}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)
        print(f"wrote {out}")


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path, default=ROOT / "benchmarks" / "timeline.png")
    ap.add_argument("--sizes", default="", metavar="WxH,...",
                    help="also shoot the window at these sizes, and the report's timeline section "
                         "(e.g. 1024x700,1920x1080), beside OUT")
    a = ap.parse_args()
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    out = a.out
    sizes = [(1280, 800)] + [tuple(int(v) for v in x.split("x")) for x in a.sizes.split(",") if x]
    from PySide6.QtWidgets import QApplication

    from hieradjudicate.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        path = build(Path(tmp))
        win = MainWindow()
        win.resize(1280, 800)
        assert win.load_project(path)
        win.show()
        tabs = win.dashboard.tabs
        tabs.setCurrentIndex(next(j for j in range(tabs.count()) if tabs.tabText(j) == "Timeline"))
        import time

        page = win.dashboard.timeline
        app.processEvents()
        while page.view is None or page.fast.busy or page.runner.busy or page.dated.runner.busy:  # off the GUI thread
            app.processEvents()
            time.sleep(0.05)
        for k, (w, h) in enumerate(sizes):
            win.resize(w, h)
            for _ in range(20):
                app.processEvents()
                time.sleep(0.01)
            target = out if k == 0 else out.with_name(f"{out.stem}-{w}x{h}{out.suffix}")
            win.grab().save(str(target))
            print(f"wrote {target} (window {win.width()}x{win.height()})")
        win.close()
        if len(sizes) > 1:
            report_shots(path, out.parent, sizes[1:])


if __name__ == "__main__":
    main()
