"""Gold-standard and history exports: deterministic bytes, provenance, unresolved handling."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.exports.csvsafe import restore_csv_cell
from hieradjudicate.io.exports.gold import export_gold, export_history, natural_key
from hieradjudicate.io.store.project_store import DecisionRow

DECISIONS = [
    Decision("bank.n", "bank.n.10", ("1", "2.a"), "set:A", "resolved", "", "ann", "T1"),
    Decision("bank.n", "bank.n.2", ("3",), "manual", "resolved", "=HYPERLINK(\"x\")", "bo", "T2"),
    Decision("art.n", "art.n.1", (), "manual", "flagged", "ask", "ann", "T3"),
    Decision("art.n", "art.n.2", ("1",), "auto-agreement", "resolved", "", "ann", "T4"),
]
INSTANCES = [("art.n", "art.n.1"), ("art.n", "art.n.2"), ("art.n", "art.n.3"),
             ("bank.n", "bank.n.2"), ("bank.n", "bank.n.10")]


def test_senseval_key_sorted_deterministic_resolved_only(tmp_path: Path) -> None:
    out = tmp_path / "gold.key"
    summary = export_gold(DECISIONS, INSTANCES, out, format="senseval")
    assert out.read_bytes() == (b"art.n art.n.2 1\n"
                                b"bank.n bank.n.2 3\n"
                                b"bank.n bank.n.10 1 2.a\n")
    assert (summary.written, summary.resolved, summary.left_out) == (3, 3, 2)
    assert summary.left_out_by_status == {"flagged": 1, "unresolved": 1}
    assert "left out 2 not resolved (1 flagged, 1 unresolved)" in str(summary)
    again = tmp_path / "again.key"
    export_gold(list(reversed(DECISIONS)), list(reversed(INSTANCES)), again, format="senseval")
    assert again.read_bytes() == out.read_bytes()


def test_senseval_refuses_unresolved_and_spaces(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Senseval key cannot hold"):
        export_gold(DECISIONS, INSTANCES, tmp_path / "k", format="senseval",
                    include_unresolved=True)
    bad = [Decision("bank.n", "1", ("a b",))]
    with pytest.raises(ProjectError, match="spaces"):
        export_gold(bad, None, tmp_path / "k", format="senseval")
    assert not (tmp_path / "k").exists()  # nothing half-written


def test_csv_has_provenance_and_neutralised_cells(tmp_path: Path) -> None:
    out = tmp_path / "gold.csv"
    summary = export_gold(DECISIONS, INSTANCES, out, format="csv", include_unresolved=True)
    assert summary.written == 5 and summary.left_out == 0
    raw = out.read_bytes()
    assert b"\r\n" not in raw and not raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert [r["instance"] for r in rows] == ["art.n.1", "art.n.2", "art.n.3", "bank.n.2",
                                             "bank.n.10"]
    assert rows[0]["status"] == "flagged" and rows[0]["note"] == "ask"
    assert rows[2] == {"lexelt": "art.n", "instance": "art.n.3", "tags": "",
                       "status": "unresolved", "source": "", "decided_by": "",
                       "decided_at": "", "note": ""}
    assert rows[3]["note"] == "'=HYPERLINK(\"x\")"
    assert restore_csv_cell(rows[3]["note"]) == DECISIONS[1].note
    assert rows[4]["tags"] == "1;2.a" and rows[4]["source"] == "set:A"
    assert rows[4]["decided_by"] == "ann" and rows[4]["decided_at"] == "T1"


def test_jsonl_rows(tmp_path: Path) -> None:
    out = tmp_path / "gold.jsonl"
    summary = export_gold(DECISIONS, INSTANCES, out, format="jsonl")
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert summary.written == len(lines) == 3
    assert lines[2] == {"lexelt": "bank.n", "instance": "bank.n.10", "tags": ["1", "2.a"],
                        "status": "resolved", "source": "set:A", "decided_by": "ann",
                        "decided_at": "T1", "note": ""}


def test_withdrawn_decision_counts_as_unresolved(tmp_path: Path) -> None:
    decisions = [DECISIONS[0], Decision.withdrawal("bank.n", "bank.n.10")]
    summary = export_gold(decisions, None, tmp_path / "k", format="senseval")
    assert summary.written == 0 and summary.left_out_by_status == {"unresolved": 1}


def test_history_csv(tmp_path: Path) -> None:
    rows = [DecisionRow(1, "bank.n", "1", ("a",), "manual", "resolved", "-dup", "ann", "T1"),
            DecisionRow(2, "bank.n", "1", (), "undo", "unresolved", "", "ann", "T2", 7,
                        {"set": "A"})]
    out = tmp_path / "history.csv"
    assert export_history(rows, out, batch_labels={7: "undo: decide"}) == 2
    got = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert got[0]["note"] == "'-dup" and got[0]["batch"] == ""
    assert got[1]["batch_label"] == "undo: decide" and json.loads(got[1]["basis"]) == {"set": "A"}


def test_natural_order() -> None:
    names = ["x.10", "x.2", "x.1b", "x.1", "y"]
    assert sorted(names, key=natural_key) == ["x.1", "x.1b", "x.2", "x.10", "y"]


def test_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="format"):
        export_gold([], None, tmp_path / "x", format="xml")
