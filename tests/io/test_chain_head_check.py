"""``project check`` verifies the head of the checksum chain kept in ``meta`` (every decision
extends it): a damaged head is named, never "sound", and repair makes a sound copy."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.io.store.chain import HEAD_KEY
from tests.app.test_session import demo_args


@pytest.fixture
def project(tmp_path: Path) -> Path:
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        s.accept_agreed()
    return path


def _other_hex(c: str) -> str:
    return "0" if c != "0" else "1"


@pytest.mark.parametrize("damage", ["chain", "count", "last_id", "not_text", "cut"])
def test_check_names_a_damaged_chain_head_and_repair_mends_it(project: Path, tmp_path: Path, capsys,
                                                              damage: str) -> None:
    conn = sqlite3.connect(project)
    head = conn.execute("SELECT value FROM meta WHERE key = ?", (HEAD_KEY,)).fetchone()[0]
    count, last, chain = head.split()
    value: str | bytes = {"chain": f"{count} {last} {chain[:-1]}{_other_hex(chain[-1])}",
                          "count": f"{int(count) + 1} {last} {chain}",
                          "last_id": f"{count} {int(last) - 1} {chain}",
                          "not_text": f"{count} {last} {chain}".encode()[:-2] + b"\xff\xfe",
                          "cut": f"{count} {last}"}[damage]
    conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, HEAD_KEY))
    conn.commit()
    conn.close()
    capsys.readouterr()
    assert main(["project", "check", str(project)]) == 1
    out = capsys.readouterr().out
    assert "DAMAGED  decision history: the head of the checksum chain" in out
    assert not out.rstrip().endswith("sound")
    fixed = tmp_path / "fixed.hadj"
    assert main(["project", "repair", str(project), "-o", str(fixed)]) == 0
    assert main(["project", "check", str(fixed)]) == 0
    assert main(["project", "decide", str(fixed), "bank.n", "bank.n.001", "1.1"]) == 0
