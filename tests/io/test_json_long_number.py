"""A number longer than Python converts (100,000 digits) in a JSON input is an error naming the
file, line and column, like any other invalid JSON, never "internal error"."""

from __future__ import annotations

from pathlib import Path

from hieradjudicate.cli.entry import main
from tests.conftest import DEMO


def test_a_hundred_thousand_digit_number_is_a_named_error(tmp_path: Path, capsys) -> None:
    ann = tmp_path / "ann.jsonl"
    ann.write_text('{"lexelt": "bank.n", "instance": "bank.n.001", "set": "a", "tags": ["1.1"]}\n'
                   '{"lexelt": "bank.n", "instance": "bank.n.002", "set": "a", "tags": ["1.1"], "n": '
                   + "9" * 100_000 + "}\n", encoding="utf-8")
    inv = tmp_path / "inv.json"
    inv.write_text('{"lexelts": {"bank.n": [{"id": "1", "n": ' + "7" * 100_000 + "}]}}\n", encoding="utf-8")
    assert main(["validate", "--inventory", str(DEMO / "inventory.txt"), "--annotations", str(ann)]) != 0
    assert main(["validate", "--inventory", str(inv)]) != 0
    out = capsys.readouterr()
    said = out.out + out.err
    assert "internal error" not in said and "Traceback" not in said
    assert f"{ann}:2:" in said and f"{inv}:1:" in said
    assert said.count("a number of 100,000 digits") == 2
