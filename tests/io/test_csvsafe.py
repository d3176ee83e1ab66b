"""Spreadsheet-formula neutralisation of CSV cells."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from hieradjudicate.io.exports.csvsafe import FORMULA_START, restore_csv_cell, safe_csv_cell


def test_formula_starts_are_prefixed() -> None:
    for start in FORMULA_START:
        assert safe_csv_cell(start + "x") == "'" + start + "x"
    assert safe_csv_cell("=SUM(A1:A9)") == "'=SUM(A1:A9)"
    assert safe_csv_cell("@cmd") == "'@cmd"


def test_harmless_cells_unchanged() -> None:
    for text in ["", "bank.n", "1.a", " =x", "a=b", "'quoted", "ü"]:
        assert safe_csv_cell(text) == text
    assert safe_csv_cell(None) == "" and safe_csv_cell(3) == "3"


def test_quotes_before_a_formula_stay_reversible() -> None:
    assert safe_csv_cell("'=x") == "''=x"
    assert restore_csv_cell("''=x") == "'=x"


@given(st.text(alphabet=st.sampled_from(list("'=+-@\t\r\nab1. ")), max_size=8) | st.text())
def test_round_trip_and_never_a_formula(text: str) -> None:
    cell = safe_csv_cell(text)
    for line in [cell, *cell.replace("\r\n", "\n").replace("\r", "\n").split("\n")[1:]]:
        assert not line.startswith(FORMULA_START) or re.fullmatch(r"-[\d.eE+-]*", line)
    assert restore_csv_cell(cell) == text


def test_numbers_stay_numbers() -> None:
    """``agree --format csv`` printed kappa -1.0 as the text '-1.0."""
    assert safe_csv_cell(-1.0) == "-1.0" and safe_csv_cell(-3) == "-3"
    for text in ["-1.0", "-2", "-.5", "1e-3", "-2.5E+4"]:
        assert safe_csv_cell(text) == text and restore_csv_cell(text) == text
    assert safe_csv_cell("-1+1") == "'-1+1"  # an expression is not a number
    assert safe_csv_cell(True) == "True"


def test_every_line_of_a_cell_is_guarded() -> None:
    """A note ``see\r=HYPERLINK(1)`` put a live formula row into the gold CSV (#12)."""
    for br in ("\r", "\n", "\r\n"):
        cell = safe_csv_cell(f"see{br}=HYPERLINK(1){br}@x{br}ok")
        assert cell == f"see{br}'=HYPERLINK(1){br}'@x{br}ok"
        assert restore_csv_cell(cell) == f"see{br}=HYPERLINK(1){br}@x{br}ok"
        for line in cell.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
            assert not line.startswith(FORMULA_START)
