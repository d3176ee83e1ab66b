"""``validate --format csv`` says why a file is invalid: after the sets' table and an empty line, a table of
the errors and warnings (severity, file, line, column, message) and of the other causes (duplicate answers,
lexelts the inventory lacks). Before, the CSV held the sets' table alone and only the exit code said 1
(found by helper trial47)."""

from __future__ import annotations

import csv
import io

from hieradjudicate.cli.entry import main
from tests.cli.conftest import DEMO


def _tables(text: str) -> list[list[list[str]]]:
    return [list(csv.reader(io.StringIO(part))) for part in text.split("\n\n")]


def _validate(capsys, key) -> tuple[int, list]:
    rc = main(["validate", "--inventory", str(DEMO / "inventory.txt"), "--annotations", str(key), "--format", "csv"])
    return rc, _tables(capsys.readouterr().out)


def test_a_line_error_is_in_the_csv_with_its_file_and_line(capsys, tmp_path) -> None:
    key = tmp_path / "bad.key"
    key.write_text("bank.n bank.n.1 1.1\nbank.n bank.n.2\n")
    rc, tables = _validate(capsys, key)
    assert rc == 1 and len(tables) == 2
    assert tables[1][0] == ["severity", "file", "line", "column", "message"]
    (row,) = tables[1][1:]
    assert row[:3] == ["error", str(key), "2"] and "no tag" in row[4]


def test_duplicate_answers_are_a_cause_in_the_csv(capsys, tmp_path) -> None:
    key = tmp_path / "dup.key"
    key.write_text("bank.n bank.n.1 1.1\nbank.n bank.n.1 2\n")
    rc, tables = _validate(capsys, key)
    assert rc == 1 and len(tables) == 2
    assert any(r[0] == "error" and "duplicate answer line" in r[4] for r in tables[1][1:])


def test_a_valid_file_has_the_sets_table_alone(capsys) -> None:
    rc, tables = _validate(capsys, DEMO / "annotator_ann.key")
    assert rc == 0 and len(tables) == 1 and tables[0][0][0] == "set"
