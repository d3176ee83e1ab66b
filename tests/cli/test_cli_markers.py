"""Issue 31, item 1, on the command line and in the app layer: a note and a flag are marks on the
instance.  ``project decide --note`` alone writes a note (no status); a later decision, a batch
(resolve-agreed) and an import keep it; ``--flag`` stays through ``--skip`` and a decision until
``--unflag``; the exports and ``project history`` say the same; undo restores the note row."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from hieradjudicate.app.dashboard.gold import DecisionTracker
from hieradjudicate.app.demo import ensure_demo_project
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return ensure_demo_project(tmp_path / "demo.hadj")


def _gold(path: Path, tmp: Path, *extra: str) -> dict[tuple[str, str], dict[str, str]]:
    out = tmp / "gold.csv"
    assert main(["project", "export", str(path), "--format", "csv", "-o", str(out), *extra]) == 0
    with open(out, encoding="utf-8", newline="") as fh:
        return {(r["lexelt"], r["instance"]): r for r in csv.DictReader(fh)}


def _agreed_instance(path: Path) -> tuple[str, str, str]:
    """An instance every annotator answers alike (resolve-agreed takes it), with that answer."""
    with Session.open(path, read_only=True) as s:
        from hieradjudicate.app.session.batch import accept_agreed

        d = accept_agreed(s.corpus, s.decisions).decisions[0]
        return d.lexelt, d.instance, d.tags[0]


def test_a_note_alone_is_no_status_and_stays_through_decide_batch_and_export(demo: Path, tmp_path: Path,
                                                                             capsys) -> None:
    lex, inst, agreed = _agreed_instance(demo)
    assert main(["project", "decide", str(demo), lex, inst, "--note", "check the gloss"]) == 0
    assert "unresolved" in capsys.readouterr().out
    st = json.loads(_status(demo, capsys))
    assert st["status"]["flagged"] == 0 and st["status"]["resolved"] == 0  # a note is no status
    rows = _gold(demo, tmp_path, "--include-unresolved")
    assert (rows[lex, inst]["status"], rows[lex, inst]["note"]) == ("unresolved", "check the gloss")
    assert main(["project", "resolve-agreed", str(demo)]) == 0  # a batch decides it: the note stays
    rows = _gold(demo, tmp_path)
    assert (rows[lex, inst]["status"], rows[lex, inst]["tags"], rows[lex, inst]["note"]) == \
        ("resolved", agreed, "check the gloss")
    assert main(["project", "decide", str(demo), lex, inst, "--note", ""]) == 0  # the user clears it
    assert _gold(demo, tmp_path)[lex, inst]["note"] == ""
    capsys.readouterr()
    assert main(["project", "history", str(demo)]) == 0
    assert "check the gloss" in capsys.readouterr().out  # the history keeps every row


def _status(path: Path, capsys) -> str:
    capsys.readouterr()
    assert main(["project", "status", str(path), "--format", "json"]) == 0
    return capsys.readouterr().out


def test_a_flag_stays_through_skip_and_decide_until_unflag(demo: Path, tmp_path: Path, capsys) -> None:
    lex, inst, agreed = _agreed_instance(demo)
    assert main(["project", "decide", str(demo), lex, inst, "--flag", "--note", "ask Ben"]) == 0
    assert main(["project", "decide", str(demo), lex, inst, "--skip"]) == 0
    assert "unchanged" in capsys.readouterr().out.splitlines()[-1]
    assert main(["project", "decide", str(demo), lex, inst, agreed]) == 0
    row = _gold(demo, tmp_path, "--include-unresolved")[lex, inst]
    assert (row["status"], row["tags"], row["note"]) == ("flagged", agreed, "ask Ben")  # not gold yet
    key = tmp_path / "gold.key"
    assert main(["project", "export", str(demo), "--format", "senseval", "-o", str(key)]) == 0
    assert f"{lex} {inst} " not in key.read_text()
    assert main(["project", "decide", str(demo), lex, inst, "--unflag"]) == 0
    row = _gold(demo, tmp_path)[lex, inst]
    assert (row["status"], row["tags"], row["note"]) == ("resolved", agreed, "ask Ben")


def test_undo_of_a_decision_brings_the_note_row_back_and_the_tracker_lists_it(demo: Path) -> None:
    from hieradjudicate.app.session import markers
    from hieradjudicate.app.session.commands import Decide
    from hieradjudicate.app.session.decisions import Decision

    with Session.open(demo) as s:
        lex, inst = s.instances()[0]
        s.execute(markers.command(markers.edit(s.decisions, lex, inst, note="later"), "note on"))
        assert len(s.decisions) == 0 and s.decisions.note(lex, inst) == "later"
        s.execute(Decide([Decision(lex, inst, ("1",))]))
        assert (s.decisions.current(lex, inst).status, s.decisions.note(lex, inst)) == ("resolved", "later")
        s.undo()
        assert s.decisions.current(lex, inst) is None and s.decisions.note(lex, inst) == "later"
        tracker = DecisionTracker(s.corpus, s.store.iter_history())
        assert [(r.instance, r.status, r.note) for _, r in tracker.noted()] == [(inst, "unresolved", "later")]
        assert tracker.n_resolved == 0
    with Session.open(demo) as s:  # read back from the file as the store keeps it
        assert s.decisions.current(lex, inst) is None and s.decisions.note(lex, inst) == "later"
