"""``project repair`` of a truncated file (its last pages gone): every row on the pages left is
kept -- as many as SQLite reads one by one from the file padded back to its length -- and the
missing ids are named (it used to refuse the file and keep none)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.app.test_session import demo_args


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, int]:
    tmp = tmp_path_factory.mktemp("trunc")
    inv, specs, ctx = demo_args(tmp)
    path = tmp / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        s.accept_agreed()
        for k, key in enumerate(s.instances()[:30]):
            s.execute(Decide([Decision(*key, (), status="flagged", note=f"n{k}")]))
        n = s.store.count_decisions()
    return path.read_bytes(), n


def _readable_one_by_one(data: bytes, n: int, tmp: Path) -> int:
    """The oracle: rows SQLite reads by id from the file zero-padded to its header's length."""
    padded = tmp / "oracle.hadj"
    page = int.from_bytes(data[16:18], "big")
    padded.write_bytes(data + b"\0" * (page * int.from_bytes(data[28:32], "big") - len(data)))
    conn = sqlite3.connect(padded)
    got = 0
    for i in range(1, n + 1):
        try:
            got += conn.execute("SELECT count(*) FROM decisions WHERE id = ?", (i,)).fetchone()[0]
        except sqlite3.DatabaseError:
            pass
    conn.close()
    return got


@pytest.mark.parametrize("pages_cut", [1, 3])
def test_repair_of_a_truncated_file_keeps_every_readable_row(sound: tuple[bytes, int], tmp_path: Path,
                                                             capsys, pages_cut: int) -> None:
    data, n = sound
    cut = data[:len(data) - pages_cut * 4096]
    readable = _readable_one_by_one(cut, n, tmp_path)
    assert 0 < readable < n
    path = tmp_path / "demo.hadj"
    path.write_bytes(cut)
    assert main(["project", "check", str(path)]) == 1
    capsys.readouterr()
    fixed = tmp_path / "fixed.hadj"
    assert main(["project", "repair", str(path), "-o", str(fixed)]) == 0
    out = capsys.readouterr()
    assert "the file is truncated" in out.out and "unreadable" in out.err
    assert path.read_bytes() == cut
    assert main(["project", "check", str(fixed)]) == 0
    with Session.open(fixed) as s:
        assert s.store.count_decisions() == readable
