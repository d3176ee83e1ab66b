"""Spreadsheet-formula neutralisation of CSV cells."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hieradjudicate.io.exports.csvsafe import FORMULA_START, restore_csv_cell, safe_csv_cell


def test_formula_starts_are_prefixed() -> None:
    for start in FORMULA_START:
        assert safe_csv_cell(start + "1") == "'" + start + "1"
    assert safe_csv_cell("=SUM(A1:A9)") == "'=SUM(A1:A9)"
    assert safe_csv_cell("@cmd") == "'@cmd"


def test_harmless_cells_unchanged() -> None:
    for text in ["", "bank.n", "1.a", " =x", "a=b", "'quoted", "ü"]:
        assert safe_csv_cell(text) == text
    assert safe_csv_cell(None) == "" and safe_csv_cell(3) == "3"


def test_quotes_before_a_formula_stay_reversible() -> None:
    assert safe_csv_cell("'=x") == "''=x"
    assert restore_csv_cell("''=x") == "'=x"


@given(st.text(alphabet=st.sampled_from(list("'=+-@\t\rab ")), max_size=6) | st.text())
def test_round_trip_and_never_a_formula(text: str) -> None:
    cell = safe_csv_cell(text)
    assert not cell.startswith(FORMULA_START)
    assert restore_csv_cell(cell) == text
