"""CSV out is safe and comes back unchanged (#12 item 4): formulas neutralised on every line,
numbers numeric, and our own importer restores every note exactly."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.app.test_session import demo_args

NOTES = ["-2", "=1+1", "see\r=HYPERLINK(1)", "line\n@SUM(A1)", "  spaced  ", "'quoted", "+x", "plain"]


@pytest.fixture
def decided(tmp_path: Path) -> tuple[Path, list[tuple[str, str]]]:
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "p.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        keys = s.instances()[: len(NOTES)]
    answers = {tuple(line.split()[:2]): line.split()[2]
               for line in Path(inv[0]).with_name("annotator_ann.key").read_text().splitlines() if line.strip()}
    tags = {k: answers[k] for k in keys}
    for (lexelt, inst), note in zip(keys, NOTES, strict=True):
        assert main(["project", "decide", str(path), lexelt, inst, tags[(lexelt, inst)], "--note", note]) == 0
    return path, keys


def _lines(path: Path) -> list[str]:
    return path.read_bytes().decode().replace("\r\n", "\n").replace("\r", "\n").split("\n")


def test_gold_csv_is_safe_and_round_trips(decided, tmp_path: Path) -> None:
    path, keys = decided
    out = tmp_path / "gold.csv"
    assert main(["project", "export", str(path), "--format", "csv", "-o", str(out)]) == 0
    for line in _lines(out):  # however a program splits rows, no line starts a formula
        assert not line.lstrip('"').startswith(("=", "+", "@", "\t")), line
        assert not (line.lstrip('"').startswith("-") and not line.lstrip('"')[1:2].isdigit()), line
    rows = list(csv.DictReader(out.open(newline="")))
    assert "-2" in {r["note"] for r in rows}  # a number stays a number
    # into a fresh project: every note comes back exactly
    (tmp_path / "again").mkdir()
    inv, specs, ctx = demo_args(tmp_path / "again")
    again = tmp_path / "again.hadj"
    Session.create(again, inv, specs, ctx).close()
    assert main(["project", "import-decisions", str(again), str(out)]) == 0
    with Session.open(again) as s:
        notes = {r.key: r.note for r in s.store.iter_history()}
    assert [notes[k] for k in keys] == NOTES


def test_history_csv_is_safe(decided, tmp_path: Path) -> None:
    path, _ = decided
    out = tmp_path / "history.csv"
    assert main(["project", "history", str(path), "-o", str(out)]) == 0
    for line in _lines(out):
        assert not line.lstrip('"').startswith(("=", "+", "@")), line


def test_agree_csv_keeps_negative_numbers_numeric(tmp_path: Path, capsys) -> None:
    a = tmp_path / "a.key"
    b = tmp_path / "b.key"
    a.write_text("x.n 1 s1\nx.n 2 s2\n")
    b.write_text("x.n 1 s2\nx.n 2 s1\n")  # total disagreement: kappa -1
    assert main(["agree", "--annotations", f"a={a}", "--annotations", f"b={b}", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "'-" not in out and "-1.0" in out
