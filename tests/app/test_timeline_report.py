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
