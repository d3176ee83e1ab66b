"""The report of a project has a timeline section (issue 32) with the figures the CLI prints."""

from __future__ import annotations

import json
from pathlib import Path

from hieradjudicate.app.session.session import Session
from hieradjudicate.app.timeline.marks import add_marker
from hieradjudicate.cli.entry import main
from tests.app.test_timeline import project  # noqa: F401  (the fixture)


def test_report_and_cli_show_the_same_timeline(project: Session, tmp_path: Path, capsys) -> None:  # noqa: F811
    add_marker(project.store, "guidelines v2", "2026-03-03")
    path = str(project.path)
    project.close()
    assert main(["project", "timeline", path, "--format", "json", "--resamples", "200", "--seed", "4"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert main(["report", path, "-o", str(tmp_path / "r.html"), "--resamples", "200", "--seed", "4"]) == 0
    html = (tmp_path / "r.html").read_text()
    sec = html[html.index('<section id="timeline">'):]
    sec = sec[:sec.index("</section>")]
    assert "guidelines v2" in sec and "<svg" in sec and "import and decision times only" in sec
    fl = d["imports"][-1]["figures"]["fleiss"]
    assert f"{fl['value']:.3f} [{fl['low']:.3f}, {fl['high']:.3f}]" in sec
    assert d["forecast"]["expected"] in sec
    assert main(["project", "timeline", path, "--by", "import", "--measure", "nope"]) == 1
    assert "--measure 'nope'" in capsys.readouterr().err


def test_the_reports_timeline_plots_draw_the_marker_between_the_days_around_it(project: Session,  # noqa: F811
                                                                              tmp_path: Path) -> None:
    import re

    add_marker(project.store, "guidelines v2", "2026-03-04T12:00")  # between the 2nd and the 3rd day
    path = str(project.path)
    project.close()
    assert main(["report", path, "-o", str(tmp_path / "r.html"), "--resamples", "200"]) == 0
    html = (tmp_path / "r.html").read_text()
    sec = html[html.index('<section id="timeline">'):]
    sec = sec[:sec.index("</section>")]
    plots = re.findall(r"<svg.*?</svg>", sec, flags=re.S)
    days = next(p for p in plots if "adjudication over time" in p)
    marker = re.search(r'<g class="marker"><title>guidelines v2</title><line x1="([\d.]+)"', days)
    assert marker is not None
    # the day points' x (the resolved-share series' circles, in order) and the marker between the 2nd and 3rd
    xs = [float(x) for x in re.findall(r'<circle cx="([\d.]+)"[^>]*fill="#4c72b0"', days)]
    assert len(xs) == 3 and xs[1] < float(marker.group(1)) < xs[2]
    # each day's overturn point carries its interval: a whisker per defined point
    assert days.count('class="interval"') >= 3
