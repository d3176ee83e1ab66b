"""``project repair`` when one bit of the schema text (a ``CREATE`` statement in
``sqlite_master``) is flipped: every row is still there, and the repair keeps every decision
(it reads them with the statement as the program writes it; the damaged file is not written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.app.test_session import demo_args


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, int]:
    tmp = tmp_path_factory.mktemp("schema")
    inv, specs, ctx = demo_args(tmp)
    path = tmp / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        s.accept_agreed()
        n = s.store.count_decisions()
    return path.read_bytes(), n


# the first byte of the statement, column names, a keyword, table names, an index
@pytest.mark.parametrize("text, at, bit", [
    (b"CREATE TABLE decisions", 0, 0), (b"lexelt TEXT", 2, 3), (b"PRIMARY KEY AUTOINCREMENT", 4, 1),
    (b"CREATE TABLE decisions", 15, 2), (b"CREATE TABLE files", 13, 0), (b"CREATE TABLE files (", 19, 0),
    (b"source_path TEXT", 3, 0), (b"CREATE INDEX decisions_instance", 3, 0)])
def test_repair_keeps_every_decision_when_one_bit_of_the_schema_is_flipped(
        sound: tuple[bytes, int], tmp_path: Path, capsys, text: bytes, at: int, bit: int) -> None:
    data, n = sound
    damaged = bytearray(data)
    damaged[data.index(text) + at] ^= 1 << bit
    path = tmp_path / "demo.hadj"
    path.write_bytes(bytes(damaged))
    assert main(["project", "check", str(path)]) == 1
    capsys.readouterr()
    fixed = tmp_path / "fixed.hadj"
    assert main(["project", "repair", str(path), "-o", str(fixed)]) == 0
    out = capsys.readouterr().out
    assert f"{n} decision rows" in out
    assert path.read_bytes() == bytes(damaged)
    assert main(["project", "check", str(fixed)]) == 0
    with Session.open(fixed) as s:
        assert s.store.count_decisions() == n
